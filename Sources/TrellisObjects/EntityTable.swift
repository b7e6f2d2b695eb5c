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
    @exclusivity(unchecked) private var insertSQL: (encodedColumns: [String], sql: String, idIndex: Int?)?
    @exclusivity(unchecked) private var upsertSQL: (columns: [String], sql: String)?

    /// `SELECT * FROM t WHERE id = ?`
    let selectByIdSQL: String
    /// `SELECT * FROM t ORDER BY id`
    let selectAllSQL: String

    /// Columns with an index, and columns with a unique index.
    let indexed: [String]
    let unique: [String]

    init(name: String, entityType: any Entity.Type, deleteRules: [String: DeleteRule], indexed: [String] = [], unique: [String] = []) {
        self.name = name
        self.entityType = entityType
        self.deleteRules = deleteRules
        self.indexed = indexed
        self.unique = unique
        self.selectByIdSQL = "SELECT * FROM \(name.quotedDatabaseIdentifier) WHERE \"id\" = ?"
        self.selectAllSQL = "SELECT * FROM \(name.quotedDatabaseIdentifier) ORDER BY \"id\""
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
            for (column, value) in zip(encoded.columns, encoded.values) where !existing.contains(column) && column != "id" {
                try db.execute(sql: "ALTER TABLE \(name.quotedDatabaseIdentifier) ADD COLUMN " + definition(column, value, encoded))
                if let toOne = encoded.toOnes.first(where: { $0.column == column }) {
                    try createIndex(db, column: toOne.column)
                }
            }
        }
        let columns = Set(try db.columns(in: name).map(\.name))
        for column in indexed + unique where !columns.contains(column) {
            throw ObjectStoreError("\(name) has no stored property \(column) to index (indexedProperties, uniqueProperties)")
        }
        for column in indexed {
            try createIndex(db, column: column)
        }
        for column in unique {
            try db.execute(sql: "CREATE UNIQUE INDEX IF NOT EXISTS \("unique_\(name)_on_\(column)".quotedDatabaseIdentifier) ON \(name.quotedDatabaseIdentifier)(\(column.quotedDatabaseIdentifier))")
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
                try db.execute(sql: "CREATE TABLE IF NOT EXISTS \(target.quotedDatabaseIdentifier) (\"id\" INTEGER PRIMARY KEY AUTOINCREMENT)")
            }
        }
        var definitions = ["\"id\" INTEGER PRIMARY KEY AUTOINCREMENT"]
        for (column, value) in zip(encoded.columns, encoded.values) where column != "id" {
            definitions.append(definition(column, value, encoded))
        }
        try db.execute(sql: "CREATE TABLE \(name.quotedDatabaseIdentifier) (" + definitions.joined(separator: ", ") + ")")
        for toOne in encoded.toOnes {
            try createIndex(db, column: toOne.column)
        }
    }

    private func createIndex(_ db: Database, column: String) throws {
        try db.execute(sql: "CREATE INDEX IF NOT EXISTS \("index_\(name)_on_\(column)".quotedDatabaseIdentifier) ON \(name.quotedDatabaseIdentifier)(\(column.quotedDatabaseIdentifier))")
    }

    /// The column definition: a type from the encoded value, and a foreign
    /// key for relations.
    private func definition(_ column: String, _ value: DatabaseValue, _ encoded: EntityEncoder) -> String {
        if let toOne = encoded.toOnes.first(where: { $0.column == column }) {
            let rule = deleteRules[toOne.property] ?? .nullify
            let target = type(of: toOne.relation).targetTableName
            return "\(column.quotedDatabaseIdentifier) INTEGER REFERENCES \(target.quotedDatabaseIdentifier)(\"id\") ON DELETE \(rule.foreignKeyAction)"
        }
        let type: String
        switch value.storage {
        case .int64: type = " INTEGER"
        case .double: type = " REAL"
        case .string: type = " TEXT"
        case .blob: type = " BLOB"
        case .null: type = ""
        }
        return column.quotedDatabaseIdentifier + type
    }

    /// `INSERT INTO t (columns) VALUES (...)`, for new objects: the encoded
    /// columns but the id, which SQLite chooses, wherever the entity
    /// declares it; and the position of the id among the encoded columns,
    /// whose value the insert leaves out.
    func insert(encodedColumns: [String]) -> (sql: String, idIndex: Int?) {
        if let insertSQL, insertSQL.encodedColumns == encodedColumns { return (insertSQL.sql, insertSQL.idIndex) }
        let idIndex = encodedColumns.firstIndex(of: "id")
        var columns = encodedColumns
        if let idIndex { columns.remove(at: idIndex) }
        let sql = columns.isEmpty
            ? "INSERT INTO \(name.quotedDatabaseIdentifier) DEFAULT VALUES"
            : "INSERT INTO \(name.quotedDatabaseIdentifier) (" + columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
                + ") VALUES (" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
        insertSQL = (encodedColumns, sql, idIndex)
        return (sql, idIndex)
    }

    /// An insert that updates the row of an existing id.
    func upsertSQL(columns: [String]) -> String {
        if let upsertSQL, upsertSQL.columns == columns { return upsertSQL.sql }
        var sql = "INSERT INTO \(name.quotedDatabaseIdentifier) (" + columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
            + ") VALUES (" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ") ON CONFLICT(\"id\") DO "
        let updates = columns.filter { $0 != "id" }.map { "\($0.quotedDatabaseIdentifier) = excluded.\($0.quotedDatabaseIdentifier)" }
        sql += updates.isEmpty ? "NOTHING" : "UPDATE SET " + updates.joined(separator: ", ")
        upsertSQL = (columns, sql)
        return sql
    }
}
