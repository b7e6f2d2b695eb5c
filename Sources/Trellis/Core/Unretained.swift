/// A reference to an object that does not keep it alive, and that is read
/// without reference counting.
///
/// The coding containers of records and objects refer to their coder with
/// it. The standard library copies a keyed container for each property it
/// decodes or encodes (a `KeyedDecodingContainer` calls its container from
/// code that is not specialized for it): with a strong reference, each
/// property would cost a retain and a release, about a tenth of the
/// decoding of an integer column.
///
/// The object must outlive the reference. A coding container lives inside
/// the `init(from:)` or `encode(to:)` that asked for it, while its coder is
/// alive (the caller holds it); a coder keeps the coders of the nested
/// containers it makes.
@usableFromInline
package struct Unretained<Object: AnyObject> {
    @usableFromInline let reference: Unmanaged<Object>

    @inlinable @inline(__always)
    package init(_ object: Object) {
        reference = .passUnretained(object)
    }

    /// Runs `body` with the object, which is not retained for the call.
    @inlinable @inline(__always)
    package func read<Result>(_ body: (Object) throws -> Result) rethrows -> Result {
        try reference._withUnsafeGuaranteedRef(body)
    }

    /// The object, retained by the caller: for the rare uses that keep it,
    /// such as `superDecoder()`.
    @inlinable
    package var object: Object {
        reference.takeUnretainedValue()
    }
}
