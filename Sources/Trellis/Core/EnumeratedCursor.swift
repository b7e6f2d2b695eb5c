/// A cursor of pairs `(offset, element)`, which ``Cursor/enumerated()``
/// returns.
///
/// ```swift
/// for (offset, name) in try String.fetchCursor(db, sql: "SELECT name FROM player").enumerated() {
///     print("\(offset): \(name)")
/// }
/// ```
public final class EnumeratedCursor<Base: Cursor>: Cursor {
    public typealias Element = (offset: Int, element: Base.Element)
    private let base: Base
    private var offset = 0

    /// A cursor of the elements of `base` with their offsets, from 0.
    public init(_ base: Base) {
        self.base = base
    }

    /// The next element of the base cursor with its offset, or nil at the end.
    ///
    /// - Throws: The error of the base cursor.
    public func next() throws -> Element? {
        guard let element = try base.next() else { return nil }
        defer { offset += 1 }
        return (offset, element)
    }

    /// Iterates through the base cursor, which may have a faster
    /// iteration than `next()`.
    ///
    /// - Throws: The error of the cursor, or the error thrown by `body`.
    public func forEach(_ body: (Element) throws -> Void) throws {
        try base.forEach { element in
            let current = offset
            offset += 1
            try body((current, element))
        }
    }
}

extension Cursor {
    /// A cursor of pairs `(offset, element)`, from offset 0.
    ///
    /// ```swift
    /// for (offset, name) in try String.fetchCursor(db, sql: "...").enumerated() { ... }
    /// ```
    public func enumerated() -> EnumeratedCursor<Self> {
        EnumeratedCursor(self)
    }
}
