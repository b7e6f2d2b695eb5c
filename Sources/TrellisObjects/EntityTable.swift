import Trellis

/// The table of an entity type: created, and given new columns, from the
/// columns the entity encodes; and the cached SQL of its statements.
final class EntityTable: @unchecked Sendable {
    // Only touched inside database accesses, which the queue serializes.
    let name: String
    /// The entity type whose objects the table holds: the first of its
    /// name that the store met.
    let entityType: any Entity.Type
    let deleteRules: [String: DeleteRule]
    @exclusivity(unchecked) private var knownColumns: Set<String>?
    /// The columns of the last object prepared for, which the table has:
    /// the next objects have the same, and compare them in order.
    @exclusivity(unchecked) private var preparedColumns: [String] = []
    // The insert's SQL in three properties rather than a tuple: reading a
    // tuple copies it, with a retain of each of its references.
    @exclusivity(unchecked) private var insertEncodedColumns: [String]?
    @exclusivity(unchecked) private var insertSQL = ""
    @exclusivity(unchecked) private var insertIdIndex: Int?
    @exclusivity(unchecked) private var upsertSQL: (columns: [String], sql: String)?

    /// `SELECT * FROM t ORDER BY id`, generated once.
    @exclusivity(unchecked) private var selectAllText: String?

    /// Columns with an index, and columns with a unique index.
    let indexed: [String]
    let unique: [String]

    init(name: String, entityType: any Entity.Type, deleteRules: [String: DeleteRule], indexed: [String] = [], unique: [String] = []) {
        self.name = name
        self.entityType = entityType
        self.deleteRules = deleteRules
        self.indexed = indexed
        self.unique = unique
    }

    /// The SQL of the lookup of an object by id, whose one parameter is
    /// the id: the connection asks for it when it prepares the lookup's
    /// statement (see `Database.withCachedLookup(for:sql:_:)`), not at
    /// each read.
    func selectByIdSQL(_ db: Database) throws -> String {
        try Self.sql(of: Table(name).filter(Column("id") == 0), db)
    }

    /// The SQL of the read of all objects, by increasing id.
    func selectAllSQL(_ db: Database) throws -> String {
        if let selectAllText { return selectAllText }
        let sql = try Self.sql(of: Table(name).order(Column("id")), db)
        selectAllText = sql
        return sql
    }

    /// The SQL that the query interface writes for `request`.
    private static func sql(of request: QueryInterfaceRequest<Row>, _ db: Database) throws -> String {
        try request.makePreparedRequest(db).statement.sql
    }

    /// Forgets what the table looks like, after the database changed.
    func invalidate() {
        knownColumns = nil
        preparedColumns = []
    }

    /// Creates the table, or adds the columns it lacks.
    func prepare(_ db: Database, for encoded: EntityEncoder) throws {
        if knownColumns != nil && encoded.columns == preparedColumns { return }
        if let knownColumns, encoded.columns.allSatisfy({ knownColumns.contains($0) }) {
            preparedColumns = encoded.columns
            return
        }
        if try !db.tableExists(name) {
            try create(db, encoded)
        } else {
            let existing = Set(try db.columns(in: name).map(\.name))
            let added = zip(encoded.columns, encoded.values).filter { !existing.contains($0.0) && $0.0 != "id" }
            if !added.isEmpty {
                try db.alter(table: name) { t in
                    for (column, value) in added {
                        define(column, value, encoded) { t.add(column: column, $0) }
                    }
                }
            }
            for (column, _) in added where encoded.toOnes.contains(where: { $0.column == column }) {
                try createIndex(db, column: column)
            }
        }
        let columns = Set(try db.columns(in: name).map(\.name))
        for column in indexed + unique where !columns.contains(column) {
            throw ObjectBoxError.illegalState(message: "\(name) has no stored property \(column) to index (indexedProperties, uniqueProperties)")
        }
        for column in indexed {
            try createIndex(db, column: column)
        }
        for column in unique {
            try db.create(index: "unique_\(name)_on_\(column)", on: name, columns: [column], options: [.unique, .ifNotExists])
        }
        knownColumns = columns
        preparedColumns = encoded.columns
    }

    private func create(_ db: Database, _ encoded: EntityEncoder) throws {
        // Foreign keys need their tables: a target type that was never put
        // gets a table with its id, and its other columns when it is put.
        for toOne in encoded.toOnes {
            let target = type(of: toOne.relation).targetTableName
            if target != name {
                try db.create(table: target, options: .ifNotExists) { t in
                    t.autoIncrementedPrimaryKey("id")
                }
            }
        }
        try db.create(table: name) { t in
            t.autoIncrementedPrimaryKey("id")
            for (column, value) in zip(encoded.columns, encoded.values) where column != "id" {
                define(column, value, encoded) { t.column(column, $0) }
            }
        }
        for toOne in encoded.toOnes {
            try createIndex(db, column: toOne.column)
        }
    }

    private func createIndex(_ db: Database, column: String) throws {
        try db.create(index: "index_\(name)_on_\(column)", on: name, columns: [column], options: .ifNotExists)
    }

    /// Defines a column with `add`, which makes it of the given type: a
    /// type from the encoded value, and a foreign key for relations.
    private func define(_ column: String, _ value: DatabaseValue, _ encoded: EntityEncoder, add: (Database.ColumnType?) -> ColumnDefinition) {
        if let toOne = encoded.toOnes.first(where: { $0.column == column }) {
            let rule = deleteRules[toOne.property] ?? .nullify
            let target = type(of: toOne.relation).targetTableName
            add(.integer).references(target, column: "id", onDelete: rule.foreignKeyAction)
            return
        }
        switch value.storage {
        case .int64: _ = add(.integer)
        case .double: _ = add(.real)
        case .string: _ = add(.text)
        case .blob: _ = add(.blob)
        case .null: _ = add(nil)
        }
    }

    /// The statement that inserts new objects: the encoded columns but the
    /// id, which SQLite chooses, wherever the entity declares it; and the
    /// position of the id among the encoded columns, whose value the
    /// insert leaves out. The SQL is written once per set of columns, and
    /// its statement found in the connection's statement cache.
    func insertStatement(_ db: Database, encodedColumns: [String]) throws -> (statement: Statement, idIndex: Int?) {
        if insertEncodedColumns == encodedColumns {
            return (try db.cachedStatement(sql: insertSQL), insertIdIndex)
        }
        let idIndex = encodedColumns.firstIndex(of: "id")
        var columns = encodedColumns
        if let idIndex { columns.remove(at: idIndex) }
        let statement = try Table(name).insertStatement(db, columns: columns)
        insertEncodedColumns = encodedColumns
        insertSQL = statement.sql
        insertIdIndex = idIndex
        return (statement, idIndex)
    }

    /// The statement that inserts an object that has an id, or updates
    /// the row of that id.
    func upsertStatement(_ db: Database, columns: [String]) throws -> Statement {
        if let upsertSQL, upsertSQL.columns == columns { return try db.cachedStatement(sql: upsertSQL.sql) }
        let statement = try Table(name).upsertStatement(db, columns: columns, onConflict: ["id"])
        upsertSQL = (columns, statement.sql)
        return statement
    }
}
