// `none()` on every request that can be filtered, associations included.

extension FilteredRequest {
    /// Keeps no row: the request fetches nothing, and an association
    /// refined with `none()` has no associated record.
    ///
    /// ```swift
    /// // Authors, with an empty `books` array
    /// let request = Author.including(all: Author.books.none())
    /// ```
    public func none() -> Self {
        filter(SQLExpression.matchesNothing)
    }
}
