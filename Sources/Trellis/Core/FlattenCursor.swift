/// A cursor of the elements of the cursors of a base cursor, one after the
/// other, which `joined()` and `flatMap(_:)` return.
///
/// ```swift
/// let ids = try Int.fetchCursor(db, sql: "SELECT id FROM team")
///     .flatMap { teamId in try Int.fetchCursor(db, sql: "SELECT id FROM player WHERE teamId = ?", arguments: [teamId]) }
/// ```
public final class FlattenCursor<Base: Cursor>: Cursor where Base.Element: Cursor {
    public typealias Element = Base.Element.Element
    private let base: Base
    private var current: Base.Element?

    /// A cursor of the elements of each cursor of `base`.
    public init(_ base: Base) {
        self.base = base
    }

    /// The next element of the inner cursors or sequences, or nil at the end.
    ///
    /// - Throws: The error of the base cursor or of an inner cursor.
    public func next() throws -> Element? {
        while true {
            if let element = try current?.next() { return element }
            guard let cursor = try base.next() else { return nil }
            current = cursor
        }
    }
}

extension Cursor where Element: Cursor {
    /// A cursor of the elements of each cursor, in order.
    public func joined() -> FlattenCursor<Self> {
        FlattenCursor(self)
    }
}

extension Cursor {
    /// A cursor of the elements of the cursors that `transform` makes.
    public func flatMap<SegmentOfResult: Cursor>(
        _ transform: @escaping (Element) throws -> SegmentOfResult) -> FlattenCursor<MapCursor<Self, SegmentOfResult>>
    {
        FlattenCursor(MapCursor(self, transform))
    }
}
