extension Row {
    /// The row as it was fetched, before a ``RowAdapter`` picked, renamed
    /// or scoped its columns: all the columns of the statement. A row that
    /// no adapter made is its own unadapted row; the scopes of an adapted
    /// row share the unadapted row of their parent.
    ///
    /// ```swift
    /// let adapter = ScopeAdapter(["author": SuffixRowAdapter(fromIndex: 2)])
    /// let row = try Row.fetchOne(db, sql: "SELECT id, title, id, name FROM ...", adapter: adapter)!
    /// row.scopes["author"]!  // [id:2 name:"Herman Melville"]
    /// row.unadapted          // [id:1 title:"Moby-Dick" id:2 name:"Herman Melville"]
    /// ```
    ///
    /// It helps debugging adapters: see what they were given.
    public var unadapted: Row {
        let root = self.root
        if let adaptedRow = root.adaptedRow { return adaptedRow }
        // A joined row: its own columns, then its scopes'.
        guard root.width > root.count else { return root }
        return Row(statement: root.unretainedStatement, values: root.storedValues, names: root.storedNames,
                   offset: root.offset, count: root.width, layout: nil, parent: nil,
                   batch: root.batch, valuesOffset: root.valuesOffset)
    }
}

extension Row {
    /// The row without its scopes and prefetched rows: its own columns only.
    ///
    /// ```swift
    /// let row = try Row.fetchOne(db, Book.including(required: Book.author))!
    /// row.scopes["author"]  // [id:2 name:"Herman Melville"]
    /// row.unscoped          // [id:1 title:"Moby-Dick" authorId:2], and no scope
    /// ```
    public var unscoped: Row {
        Row(columns: Array(zip(columnNames, databaseValues)))
    }
}
