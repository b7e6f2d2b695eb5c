import Foundation
@_spi(Inflections) import Trellis

/// An error that the `trellis` command reports in one line.
public struct CommandError: Error, CustomStringConvertible, Sendable {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}

/// Reads the schema of an existing database, read-only, and infers the
/// associations its foreign keys allow.
public enum SchemaInspector {
    /// Opens the file read-only and reports its schema. The file is never
    /// created nor changed.
    public static func inspect(path: String) throws -> DatabaseReport {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CommandError("no such file: \(path)")
        }
        guard !isDirectory.boolValue else {
            throw CommandError("\(path) is a folder, not a database file")
        }
        // Opening a named pipe or a socket would wait for a writer forever.
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        let type = (try? FileManager.default.attributesOfItem(atPath: resolved)[.type]) as? FileAttributeType
        guard type == .typeRegular || type == .typeCharacterSpecial || type == .typeBlockSpecial else {
            throw CommandError("\(path) is not a regular file")
        }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw CommandError("can not read \(path): permission denied")
        }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(2)
        let dbQueue: DatabaseQueue
        do {
            dbQueue = try DatabaseQueue(path: path, configuration: configuration)
        } catch let error as DatabaseError {
            throw CommandError(describe(error, path: path))
        }
        defer { try? dbQueue.close() }
        do {
            return try dbQueue.read { db in try report(db, path: path) }
        } catch let error as DatabaseError {
            throw CommandError(describe(error, path: path))
        }
    }

    private static func describe(_ error: DatabaseError, path: String) -> String {
        switch error.resultCode {
        case .SQLITE_NOTADB: return "\(path) is not a SQLite database"
        case .SQLITE_BUSY, .SQLITE_LOCKED: return "\(path) is locked by another process"
        case .SQLITE_CANTOPEN, .SQLITE_PERM: return "can not open \(path): \(error.message ?? "permission denied")"
        case .SQLITE_CORRUPT: return "\(path) is corrupt"
        default: return "can not read \(path): \(error.message ?? "\(error)")"
        }
    }

    /// The report of an open database.
    public static func report(_ db: Database, path: String) throws -> DatabaseReport {
        var tables: [DatabaseReport.Table] = []
        for name in try tableNames(db) {
            do {
                tables.append(try table(name, db: db))
            } catch {
                let message = (error as? DatabaseError)?.message ?? "\(error)"
                tables.append(DatabaseReport.Table(
                    name: name, virtualTableModule: try? virtualTableModule(name, db: db), columns: [], options: [],
                    primaryKey: [], hasExplicitPrimaryKey: false, foreignKeys: [], indexes: [],
                    triggers: (try? triggers(on: name, db: db)) ?? [], error: message))
            }
        }
        let views = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'view' ORDER BY name")
            .map { name in
                let triggers = try triggers(on: name, db: db)
                do {
                    return DatabaseReport.View(
                        name: name, columns: try db.columns(in: name).map(column), triggers: triggers, error: nil)
                } catch {
                    return DatabaseReport.View(
                        name: name, columns: [], triggers: triggers, error: (error as? DatabaseError)?.message ?? "\(error)")
                }
            }
        let (associations, ambiguities, warnings) = try inferAssociations(tables, db: db)
        return DatabaseReport(
            path: path, tables: tables, views: views, associations: associations, ambiguities: ambiguities,
            warnings: warnings)
    }

    /// The tables of the main schema, virtual tables included, without
    /// SQLite's own tables nor the shadow tables that store virtual ones
    /// (`docs_content` of a full-text `docs` table, for example). In LIKE,
    /// `_` matches any character: it is escaped, so that a table named
    /// `sqlitebrowser_backup` is kept.
    private static func tableNames(_ db: Database) throws -> [String] {
        do {
            // `table_list` (SQLite 3.37+) tells shadow tables apart.
            return try String.fetchAll(db, sql: """
                SELECT name FROM pragma_table_list
                WHERE schema = 'main' AND type IN ('table', 'virtual') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
                ORDER BY name
                """)
        } catch {
            return try String.fetchAll(db, sql: """
                SELECT name FROM sqlite_master
                WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
                ORDER BY name
                """)
        }
    }

    private static func table(_ name: String, db: Database) throws -> DatabaseReport.Table {
        let primaryKey = try db.primaryKey(name)
        return DatabaseReport.Table(
            name: name,
            virtualTableModule: try virtualTableModule(name, db: db),
            columns: try db.columns(in: name).map(column),
            options: try options(of: name, db: db),
            primaryKey: primaryKey.columns,
            hasExplicitPrimaryKey: !(primaryKey.isRowID && primaryKey.rowIDColumn == nil),
            foreignKeys: try foreignKeys(on: name, db: db),
            indexes: try indexes(on: name, db: db),
            triggers: try triggers(on: name, db: db),
            error: nil)
    }

    /// The options of a table, from its `CREATE TABLE` statement: those
    /// after its last parenthesis (`) WITHOUT ROWID, STRICT`), and
    /// AUTOINCREMENT, which a column declares.
    private static func options(of table: String, db: Database) throws -> [String] {
        guard let sql = try String.fetchOne(
            db, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", arguments: [table]),
            let close = sql.lastIndex(of: ")")
        else { return [] }
        let words = sql[sql.index(after: close)...].uppercased().split(whereSeparator: { $0.isWhitespace || $0 == "," })
        var options: [String] = []
        if zip(words, words.dropFirst()).contains(where: { $0 == "WITHOUT" && $1 == "ROWID" }) {
            options.append("WITHOUT ROWID")
        }
        if words.contains("STRICT") {
            options.append("STRICT")
        }
        // A keyword of the statement, not a part of a name: sqlite_sequence
        // would tell it only once the table has had rows.
        let keywords = sql.uppercased().split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") })
        if keywords.contains("AUTOINCREMENT") {
            options.append("AUTOINCREMENT")
        }
        return options
    }

    /// The triggers of a table or view, by name.
    private static func triggers(on table: String, db: Database) throws -> [DatabaseReport.Trigger] {
        try Row.fetchAll(
            db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ? COLLATE NOCASE ORDER BY name",
            arguments: [table]
        ).map { DatabaseReport.Trigger(name: $0["name"], sql: $0["sql"] ?? "") }
    }

    /// The actions of the foreign keys of a table, by foreign key id; a
    /// foreign key without action has none.
    private static func foreignKeyActions(on table: String, db: Database) throws -> [Int: (onDelete: String?, onUpdate: String?)] {
        func action(_ value: String?) -> String? { value == nil || value == "NO ACTION" ? nil : value }
        var actions: [Int: (onDelete: String?, onUpdate: String?)] = [:]
        for row in try Row.fetchAll(
            db, sql: "SELECT id, on_delete, on_update FROM pragma_foreign_key_list(?)", arguments: [table])
        {
            actions[row["id"]] = (action(row["on_delete"]), action(row["on_update"]))
        }
        return actions
    }

    /// The foreign keys of a table, in the order of their declaration.
    /// One whose destination columns are implicit and whose table is
    /// missing has no columns that `db.foreignKeys(on:)` can tell: the
    /// pragma still lists it, with its origin columns only.
    private static func foreignKeys(on table: String, db: Database) throws -> [DatabaseReport.ForeignKey] {
        let actions = try foreignKeyActions(on: table, db: db)
        do {
            // SQLite numbers foreign keys from the last declared one.
            return try db.foreignKeys(on: table).sorted { $0.id > $1.id }.map {
                DatabaseReport.ForeignKey(
                    columns: $0.originColumns, destinationTable: $0.destinationTable, destinationColumns: $0.destinationColumns,
                    onDelete: actions[$0.id]?.onDelete, onUpdate: actions[$0.id]?.onUpdate)
            }
        } catch {
            let rows = try Row.fetchAll(
                db, sql: "SELECT id, \"table\", \"from\", \"to\" FROM pragma_foreign_key_list(?) ORDER BY id DESC, seq",
                arguments: [table])
            var foreignKeys: [(id: Int, key: DatabaseReport.ForeignKey)] = []
            for row in rows {
                let id: Int = row["id"]
                if foreignKeys.last?.id != id {
                    foreignKeys.append((id, DatabaseReport.ForeignKey(
                        columns: [], destinationTable: row["table"], destinationColumns: [],
                        onDelete: actions[id]?.onDelete, onUpdate: actions[id]?.onUpdate)))
                }
                foreignKeys[foreignKeys.count - 1].key.columns.append(row["from"])
                if let destination: String = row["to"] {
                    foreignKeys[foreignKeys.count - 1].key.destinationColumns.append(destination)
                }
            }
            return foreignKeys.map(\.key)
        }
    }

    private static func column(_ column: ColumnInfo) -> DatabaseReport.Column {
        DatabaseReport.Column(
            name: column.name, type: column.type, notNull: column.isNotNull, defaultValue: column.defaultValueSQL,
            primaryKeyIndex: column.primaryKeyIndex > 0 ? column.primaryKeyIndex : nil)
    }

    /// The indexes of a table, in SQLite's order: those on columns as
    /// `db.indexes(on:)` describes them, and those on expressions, which it
    /// leaves out, by their `CREATE INDEX` statement.
    private static func indexes(on table: String, db: Database) throws -> [DatabaseReport.Index] {
        let onColumns = Dictionary(try db.indexes(on: table).map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        return try Row.fetchAll(db, sql: "SELECT name, \"unique\", partial FROM pragma_index_list(?)", arguments: [table]).map { row in
            let name: String = row["name"]
            let partial: Bool = row["partial"] ?? false
            if let index = onColumns[name] {
                return DatabaseReport.Index(
                    name: name, columns: index.columns, unique: index.isUnique, partial: partial, definition: nil)
            }
            let definition = try String.fetchOne(
                db, sql: "SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?", arguments: [name])
            return DatabaseReport.Index(
                name: name, columns: [], unique: row["unique"] ?? false, partial: partial, definition: definition)
        }
    }

    /// The module of a virtual table, from its `CREATE VIRTUAL TABLE ...
    /// USING module(...)` statement.
    private static func virtualTableModule(_ table: String, db: Database) throws -> String? {
        guard let sql = try String.fetchOne(
            db, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", arguments: [table]),
            sql.range(of: "CREATE VIRTUAL TABLE", options: [.caseInsensitive, .anchored]) != nil,
            let using = sql.range(of: " USING ", options: .caseInsensitive)
        else { return nil }
        let module = sql[using.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        return module.isEmpty ? nil : module.lowercased()
    }

    private static func inferAssociations(_ tables: [DatabaseReport.Table], db: Database) throws
        -> ([DatabaseReport.Association], [DatabaseReport.Ambiguity], [String])
    {
        var associations: [DatabaseReport.Association] = []
        var ambiguities: [DatabaseReport.Ambiguity] = []
        var warnings: [String] = []
        // A foreign key may spell its table in another case (`REFERENCES
        // PARENT` for the table `Parent`): associations use the table's name.
        let tableNames = Dictionary(tables.map { ($0.name.lowercased(), $0.name) }, uniquingKeysWith: { first, _ in first })
        for table in tables {
            let foreignKeys = table.foreignKeys.compactMap { foreignKey -> DatabaseReport.ForeignKey? in
                guard let destination = tableNames[foreignKey.destinationTable.lowercased()] else {
                    warnings.append("Foreign key (\(foreignKey.columns.joined(separator: ", "))) of \(table.name) "
                        + "references \(foreignKey.destinationTable), which is not a table of this database: no association")
                    return nil
                }
                var foreignKey = foreignKey
                foreignKey.destinationTable = destination
                return foreignKey
            }
            let originType = typeName(table.name)
            let byDestination = Dictionary(grouping: foreignKeys, by: { $0.destinationTable.lowercased() })
            for (_, foreignKeys) in byDestination.sorted(by: { $0.key < $1.key }) {
                let ambiguous = foreignKeys.count > 1
                let destination = foreignKeys[0].destinationTable
                let destinationType = typeName(destination)
                if ambiguous {
                    ambiguities.append(DatabaseReport.Ambiguity(
                        from: table.name, to: destination,
                        foreignKeys: foreignKeys.map(\.columns),
                        advice: "Ambiguous foreign key from \(table.name) to \(destination): use "
                            + foreignKeys.map { "ForeignKey(\(swiftArray($0.columns)))" }.joined(separator: " or ")))
                }
                for foreignKey in foreignKeys {
                    // Several keys to one table: each association gets a
                    // key of its own, named after its columns, so that
                    // they can be used together.
                    let using = ambiguous ? ", using: ForeignKey(\(swiftArray(foreignKey.columns)))" : ""
                    let toOne = ambiguous
                        ? role(of: foreignKey)
                        : AssociationKeyInflections.singular(memberName(destination))
                    associations.append(DatabaseReport.Association(
                        kind: "belongsTo", table: table.name, destination: destination, foreignKey: foreignKey.columns,
                        through: nil, needsExplicitForeignKey: ambiguous,
                        declaration: "static let \(swiftMember(toOne)) = belongsTo(\(destinationType).self"
                            + (ambiguous ? ", key: \(swiftString(toOne))" : "") + "\(using))"))
                    let unique = (try? db.table(table.name, hasUniqueKey: foreignKey.columns)) ?? false
                    let kind = unique ? "hasOne" : "hasMany"
                    let origin = memberName(table.name)
                    var toMany = unique ? AssociationKeyInflections.singular(origin) : AssociationKeyInflections.plural(origin)
                    if ambiguous {
                        toMany = role(of: foreignKey) + toMany.prefix(1).uppercased() + toMany.dropFirst()
                    }
                    associations.append(DatabaseReport.Association(
                        kind: kind, table: destination, destination: table.name, foreignKey: foreignKey.columns,
                        through: nil, needsExplicitForeignKey: ambiguous,
                        declaration: "static let \(swiftMember(toMany)) = \(kind)(\(originType).self"
                            + (ambiguous ? ", key: \(swiftString(toMany))" : "") + "\(using))"))
                }
            }
            // A join table: exactly two foreign keys, to two different
            // tables.
            let destinations = Set(foreignKeys.map { $0.destinationTable.lowercased() })
            if foreignKeys.count == 2, destinations.count == 2 {
                let first = foreignKeys[0]
                let second = foreignKeys[1]
                for (origin, target) in [(first, second), (second, first)] {
                    let via = AssociationKeyInflections.plural(memberName(table.name))
                    let name = AssociationKeyInflections.plural(memberName(target.destinationTable))
                    let targetToOne = AssociationKeyInflections.singular(memberName(target.destinationTable))
                    associations.append(DatabaseReport.Association(
                        kind: "hasManyThrough", table: origin.destinationTable, destination: target.destinationTable,
                        foreignKey: target.columns, through: table.name, needsExplicitForeignKey: false,
                        declaration: "static let \(swiftMember(name)) = hasMany(\(typeName(target.destinationTable)).self, "
                            + "through: \(swiftMember(via)), using: \(originType).\(swiftMember(targetToOne)))"))
                }
            }
        }
        return (associations, ambiguities, warnings)
    }

    private static func swiftArray(_ columns: [String]) -> String {
        "[" + columns.map(swiftString).joined(separator: ", ") + "]"
    }

    private static func swiftString(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// The role of a foreign key, for the names of its associations:
    /// `authorId` → `author`; otherwise its columns.
    private static func role(of foreignKey: DatabaseReport.ForeignKey) -> String {
        if foreignKey.columns.count == 1 {
            let column = foreignKey.columns[0]
            for suffix in ["Id", "_id", "ID", "Code", "_code"] where column.hasSuffix(suffix) && column.count > suffix.count {
                return memberName(String(column.dropLast(suffix.count)))
            }
        }
        return memberName(foreignKey.columns.joined(separator: "_"))
    }

    /// The words of a name: `book_tag`, `book tag` and `bookTag` give
    /// `book`, `tag` (camelCase is kept within a word).
    private static func words(_ name: String) -> [String] {
        name.split { !($0.isLetter || $0.isNumber) }.map(String.init)
    }

    /// A lowerCamelCase member name: `my table` → `myTable`.
    static func memberName(_ name: String) -> String {
        let words = words(name)
        guard let first = words.first else { return "value" }
        let head = first.prefix(1).lowercased() + first.dropFirst()
        let name = head + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        return name.first?.isNumber == true ? "_" + name : name
    }

    /// `person` → `Person`, `book_tag` → `BookTag`, `my table` → `MyTable`.
    static func typeName(_ table: String) -> String {
        let words = words(AssociationKeyInflections.singular(table))
        guard !words.isEmpty else { return "Record" }
        let name = words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        return name.first?.isNumber == true ? "_" + name : name
    }

    /// The name as a Swift member, in backquotes when it is a keyword.
    private static func swiftMember(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    private static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "protocol", "public", "rethrows", "static", "struct",
        "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer", "do", "else",
        "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while", "as",
        "false", "is", "nil", "self", "super", "throws", "true", "try", "any", "some",
    ]
}
