#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A pointer that each thread sets for itself: the innermost link of a
/// chain of accesses whose links live on the stack of the thread's nested
/// calls (see `CurrentAccess`, and the store accesses of TrellisObjects).
///
/// A thread local read costs a few instructions, where a value shared by
/// the threads would need a lock.
package struct ThreadLocalPointer<Pointee>: Sendable {
    @usableFromInline let key: pthread_key_t?

    package init() {
        var key = pthread_key_t()
        self.key = pthread_key_create(&key, nil) == 0 ? key : nil
    }

    /// The pointer of the current thread; nil until the thread sets one.
    @inlinable
    package var pointer: UnsafeMutablePointer<Pointee>? {
        get { key.flatMap { pthread_getspecific($0) }?.assumingMemoryBound(to: Pointee.self) }
        nonmutating set { if let key { pthread_setspecific(key, newValue) } }
    }
}
