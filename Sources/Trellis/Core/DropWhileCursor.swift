/// A cursor that skips the elements of a base cursor while a predicate
/// holds, which ``Cursor/drop(while:)`` returns.
///
/// ```swift
/// let scores = try Int.fetchCursor(db, sql: "SELECT score FROM player ORDER BY score").drop { $0 < 100 }
/// ```
public final class DropWhileCursor<Base: Cursor>: Cursor {
    public typealias Element = Base.Element
    private let base: Base
    private let predicate: (Base.Element) throws -> Bool
    private var isDropping = true

    /// A cursor of the elements of `base` from the first one that does not
    /// satisfy `predicate`.
    public init(_ base: Base, predicate: @escaping (Base.Element) throws -> Bool) {
        self.base = base
        self.predicate = predicate
    }

    /// The next element of the base cursor after the dropped ones, or nil at
    /// the end.
    ///
    /// - Throws: The error of the base cursor, or the error thrown by the
    ///   closure.
    public func next() throws -> Element? {
        while let element = try base.next() {
            if isDropping, try predicate(element) { continue }
            isDropping = false
            return element
        }
        return nil
    }
}

extension Cursor {
    /// A cursor that skips the elements while `predicate` is true.
    ///
    /// ```swift
    /// let scores = try Int.fetchCursor(db, sql: "SELECT score FROM player ORDER BY score").drop { $0 < 100 }
    /// ```
    public func drop(while predicate: @escaping (Element) throws -> Bool) -> DropWhileCursor<Self> {
        DropWhileCursor(self, predicate: predicate)
    }
}
