extension PreparedRequest {
    /// The adapter of the fetched rows, if the request has one: a request
    /// made with ``FetchRequest/adapted(_:)``, or a ``SQLRequest`` given an
    /// adapter. It applies to the rows of ``statement`` only.
    ///
    /// ```swift
    /// let prepared = try request.makePreparedRequest(db)
    /// let rows = try Row.fetchCursor(prepared.statement, adapter: prepared.adapter)
    /// ```
    public var adapter: (any RowAdapter)? {
        adaptation.map { PreparedRowAdapter(adaptation: $0, columnNames: statement.columnNames) }
    }
}

/// The adapter of a prepared request, as it applies to the columns of its
/// statement: rows of other columns are an error.
struct PreparedRowAdapter: RowAdapter {
    let adaptation: RowAdaptation
    let columnNames: [String]

    func _adaptation(columnNames: [String]) throws -> RowAdaptation {
        guard columnNames == self.columnNames else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "the adapter of a prepared request applies to the columns of its statement only: \(self.columnNames), not \(columnNames)")
        }
        return adaptation
    }
}
