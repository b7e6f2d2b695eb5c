/// A cursor that skips the first elements of a base cursor, which
/// ``Cursor/dropFirst(_:)`` returns.
///
/// ```swift
/// let names = try String.fetchCursor(db, sql: "SELECT name FROM player").dropFirst(2)
/// ```
public final class DropFirstCursor<Base: Cursor>: Cursor {
    public typealias Element = Base.Element
    private let base: Base
    private var toDrop: Int

    /// A cursor of the elements of `base` after the first `count`.
    public init(_ base: Base, count: Int) {
        self.base = base
        self.toDrop = count
    }

    /// The next element of the base cursor after the dropped ones, or nil at
    /// the end.
    ///
    /// - Throws: The error of the base cursor.
    public func next() throws -> Element? {
        while toDrop > 0 {
            toDrop -= 1
            guard try base.next() != nil else { return nil }
        }
        return try base.next()
    }
}

extension Cursor {
    /// A cursor that skips the first `count` elements.
    ///
    /// ```swift
    /// let names = try String.fetchCursor(db, sql: "SELECT name FROM player").dropFirst()
    /// ```
    public func dropFirst(_ count: Int = 1) -> DropFirstCursor<Self> {
        DropFirstCursor(self, count: count)
    }
}
