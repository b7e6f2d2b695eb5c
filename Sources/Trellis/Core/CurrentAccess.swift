#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The connection whose access the current thread runs, if any: a thread
/// local, since a synchronous access runs on the caller's thread and an
/// asynchronous one on the connection's queue.
///
/// It is how a connection tells a reentrant call (a database method called
/// from one of its own accesses, which would deadlock) from a call of
/// another thread, which waits its turn.
enum CurrentAccess {
    private static let key: pthread_key_t? = {
        var key = pthread_key_t()
        return pthread_key_create(&key, nil) == 0 ? key : nil
    }()

    /// The identity of the connection whose access runs on this thread:
    /// an address that is compared, never dereferenced.
    static var connection: UnsafeMutableRawPointer? {
        get { key.flatMap { pthread_getspecific($0) } }
        set { if let key { pthread_setspecific(key, newValue) } }
    }
}
