/// A cursor of the elements of a base cursor that satisfy a predicate,
/// which ``Cursor/filter(_:)`` returns.
///
/// ```swift
/// let evens: FilterCursor<FastDatabaseValueCursor<Int>> = try Int
///     .fetchCursor(db, sql: "SELECT score FROM player")
///     .filter { $0 % 2 == 0 }
/// ```
public final class FilterCursor<Base: Cursor>: Cursor {
    public typealias Element = Base.Element
    private let base: Base
    private let isIncluded: (Base.Element) throws -> Bool

    /// A cursor of the elements of `base` that satisfy `isIncluded`.
    public init(_ base: Base, _ isIncluded: @escaping (Base.Element) throws -> Bool) {
        self.base = base
        self.isIncluded = isIncluded
    }

    /// The next element of the base cursor that satisfies the predicate, or nil
    /// at the end.
    ///
    /// - Throws: The error of the base cursor, or the error thrown by the
    ///   closure.
    public func next() throws -> Element? {
        while let element = try base.next() {
            if try isIncluded(element) { return element }
        }
        return nil
    }

    /// Iterates through the base cursor, which may have a faster
    /// iteration than `next()`.
    ///
    /// - Throws: The error of the cursor, or the error thrown by `body`.
    public func forEach(_ body: (Element) throws -> Void) throws {
        try base.forEach { element in
            if try isIncluded(element) { try body(element) }
        }
    }
}

extension Cursor {
    /// A cursor of the elements that satisfy `isIncluded`.
    ///
    /// ```swift
    /// let bestScores = try Int.fetchCursor(db, sql: "SELECT score FROM player").filter { $0 > 1000 }
    /// ```
    public func filter(_ isIncluded: @escaping (Element) throws -> Bool) -> FilterCursor<Self> {
        FilterCursor(self, isIncluded)
    }
}
