/// A reference to an object that does not keep it alive, and that is read
/// without reference counting.
///
/// The coding containers of the store, and the readers and writers that
/// the ``Entity()`` macro's code calls, refer to their coder with it: they
/// are copied for each property they read or write, and a strong reference
/// would cost a retain and a release each time, about a tenth of the read
/// of an integer column.
///
/// The object must outlive the reference: a container, a reader or a
/// writer lives inside the call that was given it, while the box holds its
/// coder.
@usableFromInline
struct Unretained<Object: AnyObject> {
    @usableFromInline let reference: Unmanaged<Object>

    @inlinable @inline(__always)
    init(_ object: Object) {
        reference = .passUnretained(object)
    }

    /// Runs `body` with the object, which is not retained for the call.
    @inlinable @inline(__always)
    func read<Result>(_ body: (Object) throws -> Result) rethrows -> Result {
        try reference._withUnsafeGuaranteedRef(body)
    }

    /// The object, retained by the caller: for the uses that keep it.
    @inlinable
    var object: Object {
        reference.takeUnretainedValue()
    }
}
