/// A cursor of the transformed elements of a base cursor, which
/// ``Cursor/map(_:)`` returns.
///
/// ```swift
/// let names: MapCursor<RowCursor, String> = try Row
///     .fetchCursor(db, sql: "SELECT * FROM player")
///     .map { row in row["name"] }
/// ```
public final class MapCursor<Base: Cursor, Element>: Cursor {
    private let base: Base
    private let transform: (Base.Element) throws -> Element

    /// A cursor of `transform` applied to each element of `base`.
    public init(_ base: Base, _ transform: @escaping (Base.Element) throws -> Element) {
        self.base = base
        self.transform = transform
    }

    /// The next transformed element of the base cursor, or nil at the end.
    ///
    /// - Throws: The error of the base cursor, or the error thrown by the
    ///   closure.
    public func next() throws -> Element? {
        try base.next().map(transform)
    }

    /// Iterates through the base cursor, which may have a faster
    /// iteration than `next()`.
    ///
    /// - Throws: The error of the cursor, or the error thrown by `body`.
    public func forEach(_ body: (Element) throws -> Void) throws {
        try base.forEach { try body(transform($0)) }
    }
}

extension Cursor {
    /// A cursor of the transformed elements.
    ///
    /// ```swift
    /// let names = try Row.fetchCursor(db, sql: "SELECT * FROM player").map { $0["name"] as String }
    /// ```
    public func map<T>(_ transform: @escaping (Element) throws -> T) -> MapCursor<Self, T> {
        MapCursor(self, transform)
    }
}
