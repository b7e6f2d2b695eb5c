extension RangeReplaceableCollection {
    /// The elements of a cursor, in any collection that grows at its end.
    ///
    /// ```swift
    /// let names = try ContiguousArray(String.fetchCursor(db, sql: "SELECT name FROM player"))
    /// ```
    ///
    /// - Throws: The error of the cursor.
    public init(_ cursor: some Cursor<Element>) throws {
        self.init()
        while let element = try cursor.next() {
            append(element)
        }
    }

    /// The elements of a cursor; the first `minimumCapacity` elements are
    /// stored without reallocation.
    ///
    /// - Throws: The error of the cursor.
    public init(_ cursor: some Cursor<Element>, minimumCapacity: Int) throws {
        self.init()
        reserveCapacity(minimumCapacity)
        while let element = try cursor.next() {
            append(element)
        }
    }
}

extension Sequence {
    /// A cursor of the elements of the cursors that `transform` makes from
    /// the elements of the sequence, in order.
    ///
    /// ```swift
    /// let names = ["player", "team"].flatMap { table in
    ///     try String.fetchCursor(db, sql: "SELECT name FROM \(table)")
    /// }
    /// ```
    public func flatMap<SegmentOfResult: Cursor>(
        _ transform: @escaping (Element) throws -> SegmentOfResult) -> FlattenCursor<MapCursor<AnyCursor<Element>, SegmentOfResult>>
    {
        AnyCursor(self).flatMap(transform)
    }
}

extension Sequence where Element: Cursor {
    /// A cursor of the elements of each cursor of the sequence, in order.
    ///
    /// ```swift
    /// let cursors = try [Int.fetchCursor(db, sql: "SELECT 1"), Int.fetchCursor(db, sql: "SELECT 2")]
    /// let values = try Array(cursors.joined()) // [1, 2]
    /// ```
    public func joined() -> FlattenCursor<AnyCursor<Element>> {
        AnyCursor(self).joined()
    }
}
