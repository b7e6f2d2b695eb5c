/// A cursor of the elements of a base cursor while a predicate holds,
/// which ``Cursor/prefix(while:)`` returns.
///
/// ```swift
/// let scores = try Int.fetchCursor(db, sql: "SELECT score FROM player ORDER BY score").prefix { $0 < 100 }
/// ```
public final class PrefixWhileCursor<Base: Cursor>: Cursor {
    public typealias Element = Base.Element
    private let base: Base
    private let predicate: (Base.Element) throws -> Bool
    private var isDone = false

    /// A cursor of the elements of `base` up to the first one that does
    /// not satisfy `predicate`.
    public init(_ base: Base, predicate: @escaping (Base.Element) throws -> Bool) {
        self.base = base
        self.predicate = predicate
    }

    /// The next element of the base cursor, or nil at the first one that fails
    /// the predicate.
    ///
    /// - Throws: The error of the base cursor, or the error thrown by the
    ///   closure.
    public func next() throws -> Element? {
        guard !isDone, let element = try base.next() else { return nil }
        if try predicate(element) { return element }
        isDone = true
        return nil
    }
}

extension Cursor {
    /// A cursor of the elements while `predicate` is true.
    ///
    /// ```swift
    /// let scores = try Int.fetchCursor(db, sql: "SELECT score FROM player ORDER BY score").prefix { $0 < 100 }
    /// ```
    public func prefix(while predicate: @escaping (Element) throws -> Bool) -> PrefixWhileCursor<Self> {
        PrefixWhileCursor(self, predicate: predicate)
    }
}
