/// A cursor of the first elements of a base cursor, which
/// ``Cursor/prefix(_:)`` returns.
///
/// ```swift
/// let firstNames = try String.fetchCursor(db, sql: "SELECT name FROM player").prefix(3)
/// ```
public final class PrefixCursor<Base: Cursor>: Cursor {
    public typealias Element = Base.Element
    private let base: Base
    private var remaining: Int

    /// A cursor of the first `maxLength` elements of `base`.
    public init(_ base: Base, maxLength: Int) {
        self.base = base
        self.remaining = maxLength
    }

    /// The next element of the base cursor, or nil after the maximum length.
    ///
    /// - Throws: The error of the base cursor.
    public func next() throws -> Element? {
        guard remaining > 0 else { return nil }
        remaining -= 1
        return try base.next()
    }
}

extension Cursor {
    /// A cursor of the first `maxLength` elements.
    ///
    /// ```swift
    /// let firstNames = try String.fetchCursor(db, sql: "SELECT name FROM player").prefix(3)
    /// ```
    public func prefix(_ maxLength: Int) -> PrefixCursor<Self> {
        PrefixCursor(self, maxLength: maxLength)
    }
}
