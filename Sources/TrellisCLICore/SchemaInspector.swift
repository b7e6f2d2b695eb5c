import Foundation
import Trellis

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
    ///
    /// The file is treated as untrusted (``Configuration/defensive``): its
    /// schema can not call a function nor write. A schema made to keep
    /// SQLite busy stops the inspection after `timeLimit` seconds.
    public static func inspect(path: String, timeLimit: TimeInterval = 60) throws -> DatabaseReport {
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
        configuration.defensive = true
        configuration.busyMode = .timeout(min(2, timeLimit))
        // SQLite reads a name that starts with `file:` as a URI, which may
        // name another file: the checked file is the opened one.
        let openedPath = path.hasPrefix("file:") ? "./" + path : path
        let dbQueue: DatabaseQueue
        do {
            dbQueue = try DatabaseQueue(path: openedPath, configuration: configuration)
        } catch let error as DatabaseError {
            throw CommandError(describe(error, path: path))
        }
        defer { try? dbQueue.close() }
        // Past the limit, each statement is interrupted as soon as it runs:
        // one interrupt only stops the statement running at that moment.
        let watchdog = DispatchSource.makeTimerSource(queue: .global())
        watchdog.schedule(deadline: .now() + timeLimit, repeating: .milliseconds(20))
        watchdog.setEventHandler { dbQueue.interrupt() }
        watchdog.resume()
        defer { watchdog.cancel() }
        let deadline = Date(timeIntervalSinceNow: timeLimit)
        let inspected: DatabaseReport
        do {
            inspected = try dbQueue.read { db in try report(db, path: path) }
        } catch let error as DatabaseError {
            if Date() >= deadline { throw timeLimitError(path: path, timeLimit: timeLimit) }
            throw CommandError(describe(error, path: path))
        }
        // The tables read after the limit hold interruption errors.
        if Date() >= deadline { throw timeLimitError(path: path, timeLimit: timeLimit) }
        return inspected
    }

    private static func timeLimitError(path: String, timeLimit: TimeInterval) -> CommandError {
        CommandError("\(path) took longer than \(timeLimit) s to inspect: the inspection stopped")
    }

    /// `SQLITE_READONLY_ROLLBACK`: the file has a hot journal, which a
    /// read-only connection can not roll back.
    private static let hotJournalResultCode = ResultCode(rawValue: ResultCode.SQLITE_READONLY.rawValue | (3 << 8))

    private static func describe(_ error: DatabaseError, path: String) -> String {
        if error.extendedResultCode == hotJournalResultCode {
            // The journal holds the pages the transaction changed: only a
            // connection that may write can put them back.
            return "\(path) has an interrupted transaction (hot journal \(path)-journal): open it read-write once to "
                + "recover it (for example: sqlite3 \(shellArgument(path)) 'PRAGMA schema_version')"
        }
        switch error.resultCode {
        case .SQLITE_NOTADB: return "\(path) is not a SQLite database"
        case .SQLITE_BUSY, .SQLITE_LOCKED: return "\(path) is locked by another process"
        case .SQLITE_CANTOPEN, .SQLITE_PERM: return "can not open \(path): \(error.message ?? "permission denied")"
        // SQLite's message names the damaged schema object, if any.
        case .SQLITE_CORRUPT: return "\(path) is corrupt" + (error.message.map { ": \($0)" } ?? "")
        default: return "can not read \(path): \(error.message ?? "\(error)")"
        }
    }

    /// The path as one argument of a shell command line, which the
    /// `sqlite3` command reads as a file name: quoted when the shell would
    /// split or expand it, and after `./` when it starts like an option or
    /// a URI.
    private static func shellArgument(_ path: String) -> String {
        let plain = path.hasPrefix("-") || path.hasPrefix("file:") ? "./" + path : path
        let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./+-:@%,=")
        if !plain.isEmpty, plain.allSatisfy(safe.contains) { return plain }
        return "'" + plain.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// The report of an open database.
    public static func report(_ db: Database, path: String) throws -> DatabaseReport {
        let schema = try StoredSchema(db)
        var tables: [DatabaseReport.Table] = []
        var declaredForeignKeys: [[DeclaredForeignKey]] = []
        for name in try tableNames(db) {
            do {
                let (table, foreignKeys) = try table(name, schema: schema, db: db)
                tables.append(table)
                declaredForeignKeys.append(foreignKeys)
            } catch {
                let message = (error as? DatabaseError)?.message ?? "\(error)"
                tables.append(DatabaseReport.Table(
                    name: name, virtualTableModule: virtualTableModule(schema.code(ofTable: name)), columns: [],
                    options: [], primaryKey: [], hasExplicitPrimaryKey: false, foreignKeys: [], indexes: [],
                    triggers: schema.triggers(on: name), error: message))
                declaredForeignKeys.append([])
            }
        }
        // A foreign key is checked against the keys of its destination,
        // which may be read after the table that refers to it.
        let destinations = Dictionary(
            tables.filter { $0.error == nil }.map { (folded($0.name), $0) },
            uniquingKeysWith: { first, _ in first })
        for index in tables.indices {
            tables[index].foreignKeys = declaredForeignKeys[index].map { $0.resolved(destinations: destinations) }
        }
        let views = schema.viewNames.map { name in
            let triggers = schema.triggers(on: name)
            do {
                return DatabaseReport.View(name: name, columns: try columns(of: name, db: db), triggers: triggers, error: nil)
            } catch {
                return DatabaseReport.View(
                    name: name, columns: [], triggers: triggers, error: (error as? DatabaseError)?.message ?? "\(error)")
            }
        }
        let (associations, ambiguities, warnings) = inferAssociations(tables, viewNames: schema.viewNames)
        return DatabaseReport(
            path: path, tables: tables, views: views, associations: associations, ambiguities: ambiguities,
            warnings: warnings)
    }

    /// A name as SQLite compares names: ASCII letters in any case are the
    /// same, other characters are not folded.
    static func folded(_ name: String) -> String {
        String(String.UnicodeScalarView(name.unicodeScalars.map { scalar in
            ("A"..."Z").contains(scalar) ? Unicode.Scalar(scalar.value + 32) ?? scalar : scalar
        }))
    }

    /// The objects of the main schema, read from `sqlite_master` once:
    /// `sqlite_master` has no index, and looking each table up in it made
    /// a database of thousands of tables take minutes.
    private struct StoredSchema {
        private var tableStatements: [String: String] = [:]
        private var indexStatements: [String: String] = [:]
        private var triggersByTable: [String: [DatabaseReport.Trigger]] = [:]
        /// In SQLite's order of names (`BINARY`).
        private(set) var viewNames: [String] = []

        init(_ db: Database) throws {
            for row in try Row.fetchAll(db, sql: "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name") {
                let type: String? = row["type"]
                let name: String = row["name"] ?? ""
                let sql: String? = row["sql"]
                switch type {
                case "table": tableStatements[folded(name)] = sql
                case "index": indexStatements[folded(name)] = sql
                case "view": viewNames.append(name)
                case "trigger":
                    let table: String = row["tbl_name"] ?? ""
                    triggersByTable[folded(table), default: []].append(DatabaseReport.Trigger(name: name, sql: sql ?? ""))
                default: break
                }
            }
        }

        /// The words of the `CREATE TABLE` statement of a table, which
        /// tell its options and module.
        func code(ofTable table: String) -> SQLCode? {
            tableStatements[folded(table)].map(SQLCode.init)
        }

        /// The `CREATE INDEX` statement of an index; nil for the indexes
        /// of constraints (`UNIQUE`, `PRIMARY KEY`).
        func statement(ofIndex index: String) -> String? {
            indexStatements[folded(index)]
        }

        /// The triggers of a table or view, by name.
        func triggers(on table: String) -> [DatabaseReport.Trigger] {
            triggersByTable[folded(table)] ?? []
        }
    }

    /// The module of a virtual table, from its `CREATE VIRTUAL TABLE ...
    /// USING module(...)` statement: the word after the keyword USING, not
    /// after a table name that contains it.
    private static func virtualTableModule(_ code: SQLCode?) -> String? {
        guard let keywords = code?.keywords,
              keywords.starts(with: ["CREATE", "VIRTUAL", "TABLE"]),
              let using = keywords.firstIndex(of: "USING"), using + 1 < keywords.count
        else { return nil }
        return keywords[using + 1].lowercased()
    }

    /// The options of a table, from its `CREATE TABLE` statement: those
    /// after its last parenthesis (`) WITHOUT ROWID, STRICT`), and
    /// AUTOINCREMENT, which a column declares. Names, strings and comments
    /// are left out: a comment may hold a parenthesis, a default value or
    /// a name the word AUTOINCREMENT.
    private static func options(_ code: SQLCode?) -> [String] {
        guard let keywords = code?.keywords, let close = keywords.lastIndex(where: { $0 == ")" }) else { return [] }
        let words = keywords[(close + 1)...].filter { $0 != "," }
        var options: [String] = []
        if zip(words, words.dropFirst()).contains(where: { $0 == "WITHOUT" && $1 == "ROWID" }) {
            options.append("WITHOUT ROWID")
        }
        if words.contains("STRICT") {
            options.append("STRICT")
        }
        // sqlite_sequence would tell it only once the table has had rows.
        if keywords.contains("AUTOINCREMENT") {
            options.append("AUTOINCREMENT")
        }
        return options
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

    /// A table, and its foreign keys as declared. The pragmas take the
    /// name as an argument: SQLite finds the table in its schema by a hash
    /// lookup, and each statement is prepared once for all tables.
    private static func table(_ name: String, schema: StoredSchema, db: Database) throws
        -> (DatabaseReport.Table, [DeclaredForeignKey])
    {
        let columns = try columns(of: name, db: db)
        let primaryKey = columns
            .filter { $0.primaryKeyIndex != nil }
            .sorted { ($0.primaryKeyIndex ?? 0) < ($1.primaryKeyIndex ?? 0) }
            .map(\.name)
        let code = schema.code(ofTable: name)
        let table = DatabaseReport.Table(
            name: name,
            virtualTableModule: virtualTableModule(code),
            columns: columns,
            options: options(code),
            primaryKey: primaryKey.isEmpty ? ["rowid"] : primaryKey,
            hasExplicitPrimaryKey: !primaryKey.isEmpty,
            rowIDColumn: primaryKey.isEmpty ? nil : try db.primaryKey(name, in: "main").rowIDColumn,
            foreignKeys: [],
            indexes: try indexes(on: name, schema: schema, db: db),
            triggers: schema.triggers(on: name),
            error: nil)
        return (table, try foreignKeys(on: name, db: db))
    }

    /// The columns of a table or view, without the hidden columns of
    /// virtual tables, as Trellis introspects them.
    private static func columns(of table: String, db: Database) throws -> [DatabaseReport.Column] {
        try db.columns(in: table, in: "main").map { column in
            let generated: String?
            switch column.generated {
            case .virtual: generated = "virtual"
            case .stored: generated = "stored"
            case nil: generated = nil
            }
            return DatabaseReport.Column(
                name: column.name, type: column.type, notNull: column.isNotNull, defaultValue: column.defaultValueSQL,
                primaryKeyIndex: column.primaryKeyIndex > 0 ? column.primaryKeyIndex : nil, generated: generated)
        }
    }

    /// A foreign key as the table declares it: without destination
    /// columns when it names none.
    private struct DeclaredForeignKey {
        var columns: [String] = []
        var destinationTable: String
        var destinationColumns: [String]?
        var onDelete: String?
        var onUpdate: String?

        /// The foreign key, with the primary key of its destination as
        /// destination columns when it names none. As SQLite, it is a
        /// mismatch when its destination columns are not the primary key
        /// nor a unique index of its destination table, or when the
        /// primary key that it implies has another number of columns.
        func resolved(destinations: [String: DatabaseReport.Table]) -> DatabaseReport.ForeignKey {
            var foreignKey = DatabaseReport.ForeignKey(
                columns: columns, destinationTable: destinationTable, destinationColumns: destinationColumns ?? [],
                onDelete: onDelete, onUpdate: onUpdate, mismatch: nil)
            guard let destination = destinations[folded(destinationTable)] else { return foreignKey }
            if let destinationColumns {
                if !destination.isKey(destinationColumns) {
                    foreignKey.mismatch = "(\(destinationColumns.joined(separator: ", "))) is neither the primary key "
                        + "of \(destination.name) nor unique"
                }
            } else if !destination.hasExplicitPrimaryKey {
                foreignKey.mismatch = "\(destination.name) has no primary key"
            } else if destination.primaryKey.count != columns.count {
                let count = destination.primaryKey.count
                foreignKey.mismatch = "the primary key of \(destination.name) has \(count) column\(count == 1 ? "" : "s")"
            } else {
                foreignKey.destinationColumns = destination.primaryKey
            }
            return foreignKey
        }
    }

    /// The foreign keys of a table, in the order of their declaration, as
    /// Trellis introspects them.
    private static func foreignKeys(on table: String, db: Database) throws -> [DeclaredForeignKey] {
        try db.declaredForeignKeys(on: table, in: "main").map { foreignKey in
            DeclaredForeignKey(
                columns: foreignKey.originColumns, destinationTable: foreignKey.destinationTable,
                destinationColumns: foreignKey.destinationColumns,
                onDelete: foreignKey.onDelete?.rawValue, onUpdate: foreignKey.onUpdate?.rawValue)
        }
    }

    /// The indexes of a table, in SQLite's order, as Trellis introspects
    /// them; an index on expressions has no column names: it is described
    /// by its `CREATE INDEX` statement.
    private static func indexes(on table: String, schema: StoredSchema, db: Database) throws -> [DatabaseReport.Index] {
        try db.indexes(on: table, in: "main", includingExpressions: true).map { index in
            DatabaseReport.Index(
                name: index.name, columns: index.columns, unique: index.isUnique, partial: index.isPartial,
                definition: index.isOnExpressions ? schema.statement(ofIndex: index.name) : nil)
        }
    }

    /// An association before its declaration is written: its member name
    /// may change when another association of its table takes it.
    private struct AssociationDraft {
        var association: DatabaseReport.Association
        var member: String
        /// `belongsTo(Author.self`: the call, up to its key and options.
        var call: String
        var explicitKey: String?
        /// `, using: ForeignKey(["authorId"])`, or empty.
        var options: String
        var isToMany: Bool
        /// A name to take before a number when the member is taken: a
        /// direct association named after its foreign key's role.
        var fallback: String? = nil
        /// For an association through a join table: the drafts of the
        /// association to the join table and of the join table's to-one
        /// association to the target, whose final names the declaration
        /// uses.
        var through: (pivot: Int, target: Int)? = nil
    }

    private static func inferAssociations(_ tables: [DatabaseReport.Table], viewNames: [String])
        -> ([DatabaseReport.Association], [DatabaseReport.Ambiguity], [String])
    {
        var drafts: [AssociationDraft] = []
        // The drafts of each foreign key's associations: its `belongsTo`,
        // and its reverse `hasMany` or `hasOne`.
        var toOneDrafts: [(DatabaseReport.ForeignKey, Int)] = []
        var reverseDrafts: [(DatabaseReport.ForeignKey, Int)] = []
        var ambiguities: [DatabaseReport.Ambiguity] = []
        var warnings: [String] = []
        // A foreign key may spell its table in another case (`REFERENCES
        // PARENT` for the table `Parent`): associations use the table's name.
        let tableNames = Dictionary(tables.map { ($0.name.lowercased(), $0.name) }, uniquingKeysWith: { first, _ in first })
        let views = Set(viewNames.map(folded))
        // An association whose key is a column of the table that includes
        // it is never decoded: a record's property of that name reads the
        // column (the `state` column of Home Assistant's `states`, whose
        // `old_state_id` references `states`). Such a name yields.
        let columnsByTable = Dictionary(
            tables.map { ($0.name.lowercased(), Set($0.columns.map { $0.name.lowercased() })) },
            uniquingKeysWith: { first, _ in first })
        func isFree(_ member: String, on table: String) -> Bool {
            !(columnsByTable[table.lowercased()]?.contains(member.lowercased()) ?? false)
        }
        func toOneMember(on table: String, _ foreignKey: DatabaseReport.ForeignKey, ambiguous: Bool) -> String {
            let base = ambiguous ? role(of: foreignKey) : AssociationKeyInflections.singular(memberName(foreignKey.destinationTable))
            if isFree(base, on: table) { return base }
            let byRole = role(of: foreignKey)
            if byRole != base, isFree(byRole, on: table) { return byRole }
            return base + "Record"
        }
        func toManyMember(on table: String, _ base: String, unique: Bool) -> String {
            isFree(base, on: table) ? base : base + (unique ? "Record" : "Records")
        }
        func draft(_ kind: String, table: String, destination: String, foreignKey: [String], through: String? = nil,
                   ambiguous: Bool, member: String, call: String, explicitKey: String? = nil, options: String = "",
                   isToMany: Bool) -> AssociationDraft
        {
            AssociationDraft(
                association: DatabaseReport.Association(
                    kind: kind, table: table, destination: destination, foreignKey: foreignKey, through: through,
                    needsExplicitForeignKey: ambiguous, declaration: ""),
                member: member, call: call, explicitKey: explicitKey, options: options, isToMany: isToMany)
        }
        for table in tables {
            var foreignKeys: [DatabaseReport.ForeignKey] = []
            for foreignKey in table.foreignKeys {
                let columns = foreignKey.columns.joined(separator: ", ")
                var warning: String?
                if let mismatch = foreignKey.mismatch {
                    let destination = foreignKey.destinationTable
                        + (foreignKey.destinationColumns.isEmpty ? "" : "(\(foreignKey.destinationColumns.joined(separator: ", ")))")
                    warning = "Foreign key mismatch: (\(columns)) of \(table.name) references \(destination), "
                        + "but \(mismatch): no association"
                } else if tableNames[foreignKey.destinationTable.lowercased()] == nil {
                    let isView = views.contains(folded(foreignKey.destinationTable))
                    warning = "Foreign key (\(columns)) of \(table.name) references \(foreignKey.destinationTable), "
                        + (isView ? "which is a view, not a table" : "which is not a table of this database") + ": no association"
                }
                if let warning {
                    // A key declared twice warns once.
                    if !warnings.contains(warning) { warnings.append(warning) }
                    continue
                }
                guard let destination = tableNames[foreignKey.destinationTable.lowercased()] else { continue }
                var foreignKey = foreignKey
                foreignKey.destinationTable = destination
                // The same key declared twice (a column constraint and a
                // table constraint) is one key.
                if foreignKeys.contains(where: { $0.isSameKey(as: foreignKey) }) { continue }
                foreignKeys.append(foreignKey)
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
                    let toOne = toOneMember(on: table.name, foreignKey, ambiguous: ambiguous)
                    toOneDrafts.append((foreignKey, drafts.count))
                    drafts.append(draft(
                        "belongsTo", table: table.name, destination: destination, foreignKey: foreignKey.columns,
                        ambiguous: ambiguous, member: toOne, call: "belongsTo(\(destinationType).self",
                        explicitKey: ambiguous ? toOne : nil, options: using, isToMany: false))
                    let unique = table.hasUniqueKey(foreignKey.columns)
                    let kind = unique ? "hasOne" : "hasMany"
                    let origin = memberName(table.name)
                    let plain = unique ? AssociationKeyInflections.singular(origin) : AssociationKeyInflections.plural(origin)
                    let byRole = role(of: foreignKey) + plain.prefix(1).uppercased() + plain.dropFirst()
                    let toMany = toManyMember(on: destination, ambiguous ? byRole : plain, unique: unique)
                    reverseDrafts.append((foreignKey, drafts.count))
                    var reverse = draft(
                        kind, table: destination, destination: table.name, foreignKey: foreignKey.columns,
                        ambiguous: ambiguous, member: toMany, call: "\(kind)(\(originType).self",
                        explicitKey: ambiguous ? toMany : nil, options: using, isToMany: !unique)
                    // The store that a staff member manages, beside the
                    // store they work in: `managerStaffStore`, not `store2`.
                    if !ambiguous { reverse.fallback = toManyMember(on: destination, byRole, unique: unique) }
                    drafts.append(reverse)
                }
            }
            // A join table: exactly two foreign keys, to two different
            // tables.
            // The association through it goes from one destination to the
            // join table (the reverse of the first key: `hasMany`, or
            // `hasOne` when that key is unique), then to the other
            // destination (`belongsTo`): a `hasOne` pivot gives a
            // `hasOneThrough`.
            let destinations = Set(foreignKeys.map { $0.destinationTable.lowercased() })
            if foreignKeys.count == 2, destinations.count == 2 {
                func index(_ drafted: [(DatabaseReport.ForeignKey, Int)], _ foreignKey: DatabaseReport.ForeignKey) -> Int? {
                    drafted.last { $0.0.isSameKey(as: foreignKey) }?.1
                }
                let first = foreignKeys[0]
                let second = foreignKeys[1]
                for (origin, target) in [(first, second), (second, first)] {
                    guard let pivot = index(reverseDrafts, origin), let targetToOne = index(toOneDrafts, target) else { continue }
                    let toOne = !drafts[pivot].isToMany
                    let inflected = toOne
                        ? AssociationKeyInflections.singular(memberName(target.destinationTable))
                        : AssociationKeyInflections.plural(memberName(target.destinationTable))
                    let name = toManyMember(on: origin.destinationTable, inflected, unique: toOne)
                    var through = draft(
                        toOne ? "hasOneThrough" : "hasManyThrough", table: origin.destinationTable,
                        destination: target.destinationTable, foreignKey: target.columns, through: table.name,
                        ambiguous: false, member: name,
                        call: "\(toOne ? "hasOne" : "hasMany")(\(typeName(target.destinationTable)).self",
                        isToMany: !toOne)
                    through.through = (pivot, targetToOne)
                    drafts.append(through)
                }
            }
        }
        return (declarations(of: drafts), ambiguities, warnings)
    }

    /// The associations with their declarations. Two associations of one
    /// table can not share a member name (a direct `posts` and the `posts`
    /// through `likes`): the later one is named after its join table, or
    /// numbered. An association whose default key is not its member name
    /// (the key of `belongsTo(Artist.self)` is the table name, `Artist`)
    /// gets the member name as key, so that a Decodable record with a
    /// property of that name decodes it.
    private static func declarations(of drafts: [AssociationDraft]) -> [DatabaseReport.Association] {
        var usedMembers: [String: Set<String>] = [:]
        // Direct associations keep their names; those through a join
        // table yield.
        let order = drafts.indices.filter { drafts[$0].association.through == nil }
            + drafts.indices.filter { drafts[$0].association.through != nil }
        var named = drafts
        for index in order {
            var draft = drafts[index]
            let table = draft.association.table.lowercased()
            var used = usedMembers[table] ?? []
            if used.contains(draft.member), let fallback = draft.fallback, !used.contains(fallback) {
                draft.member = fallback
            } else if used.contains(draft.member) {
                var member = draft.member
                if let through = draft.association.through {
                    let via = draft.isToMany
                        ? AssociationKeyInflections.plural(memberName(through))
                        : AssociationKeyInflections.singular(memberName(through))
                    member += "Through" + via.prefix(1).uppercased() + via.dropFirst()
                }
                var number = 2
                let base = member
                while used.contains(member) {
                    member = base + String(number)
                    number += 1
                }
                draft.member = member
            }
            used.insert(draft.member)
            usedMembers[table] = used
            named[index] = draft
        }
        // The declarations through a join table name the members that
        // their pivot and target associations finally have.
        for index in named.indices {
            guard let (pivot, target) = named[index].through else { continue }
            let joinType = typeName(named[target].association.table)
            named[index].options = ", through: \(swiftMember(named[pivot].member)), using: \(joinType).\(swiftMember(named[target].member))"
        }
        return named.map { draft in
            let destination = draft.association.destination
            let defaultKey = draft.isToMany
                ? AssociationKeyInflections.plural(destination)
                : AssociationKeyInflections.singular(destination)
            let key = draft.explicitKey ?? (defaultKey == draft.member ? nil : draft.member)
            var association = draft.association
            let keyArgument = key.map { ", key: \(swiftString($0))" } ?? ""
            // `belongsTo(_:key:using:)`, but `hasMany(_:through:using:key:)`.
            let arguments = association.through == nil ? keyArgument + draft.options : draft.options + keyArgument
            association.declaration = "static let \(swiftMember(draft.member)) = \(draft.call)\(arguments))"
            return association
        }
    }

    private static func swiftArray(_ columns: [String]) -> String {
        "[" + columns.map(swiftString).joined(separator: ", ") + "]"
    }

    /// A Swift string literal of the text: a name may hold quotes,
    /// backslashes, newlines and other control characters.
    private static func swiftString(_ text: String) -> String {
        var literal = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": literal += "\\\\"
            case "\"": literal += "\\\""
            case "\n": literal += "\\n"
            case "\r": literal += "\\r"
            case "\t": literal += "\\t"
            case _ where scalar.properties.generalCategory == .control:
                literal += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: literal.unicodeScalars.append(scalar)
            }
        }
        return literal + "\""
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

extension DatabaseReport.Table {
    /// Whether the columns, in any order, are exactly the primary key of
    /// the table or the columns of a unique index on all its rows: the
    /// keys SQLite accepts as the destination of a foreign key.
    fileprivate func isKey(_ columns: [String]) -> Bool {
        let wanted = Set(columns.map(SchemaInspector.folded))
        if hasExplicitPrimaryKey, Set(primaryKey.map(SchemaInspector.folded)) == wanted { return true }
        return indexes.contains { index in
            index.unique && !index.partial && !index.columns.isEmpty
                && Set(index.columns.map(SchemaInspector.folded)) == wanted
        }
    }

    /// Whether the columns are a unique key of the table: they hold its
    /// primary key (`rowid` for a table without one), or the columns of a
    /// unique index on all rows. Foreign key columns are declared columns:
    /// one named `rowid` is not the hidden rowid.
    fileprivate func hasUniqueKey(_ columns: [String]) -> Bool {
        let wanted = Set(columns.map(SchemaInspector.folded))
        if Set(primaryKey.map(SchemaInspector.folded)).isSubset(of: wanted) { return true }
        return indexes.contains { index in
            // An index on expressions makes no set of columns unique, and
            // a partial one only the rows of its WHERE clause: others may
            // share a value.
            index.unique && !index.partial && !index.columns.isEmpty
                && Set(index.columns.map(SchemaInspector.folded)).isSubset(of: wanted)
        }
    }
}

extension DatabaseReport.ForeignKey {
    /// Whether the keys link the same columns to the same table.
    fileprivate func isSameKey(as other: Self) -> Bool {
        columns.map { $0.lowercased() } == other.columns.map { $0.lowercased() }
            && destinationTable.lowercased() == other.destinationTable.lowercased()
            && destinationColumns.map { $0.lowercased() } == other.destinationColumns.map { $0.lowercased() }
    }
}
