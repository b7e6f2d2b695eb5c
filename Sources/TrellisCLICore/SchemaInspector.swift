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
    public static func inspect(path: String) throws -> DatabaseReport {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CommandError("no such file: \(path)")
        }
        guard !isDirectory.boolValue else {
            throw CommandError("\(path) is a folder, not a database file")
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
        let names = try String.fetchAll(db, sql: """
            SELECT name FROM sqlite_master
            WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
            ORDER BY name
            """)
        var tables: [DatabaseReport.Table] = []
        for name in names {
            do {
                tables.append(try table(name, db: db))
            } catch {
                let message = (error as? DatabaseError)?.message ?? "\(error)"
                tables.append(DatabaseReport.Table(
                    name: name, columns: [], primaryKey: [], hasExplicitPrimaryKey: false,
                    foreignKeys: [], indexes: [], error: message))
            }
        }
        let (associations, ambiguities) = try inferAssociations(tables, db: db)
        return DatabaseReport(path: path, tables: tables, associations: associations, ambiguities: ambiguities)
    }

    private static func table(_ name: String, db: Database) throws -> DatabaseReport.Table {
        let columns = try db.columns(in: name)
        let primaryKey = try db.primaryKey(name)
        return DatabaseReport.Table(
            name: name,
            columns: columns.map {
                DatabaseReport.Column(
                    name: $0.name, type: $0.type, notNull: $0.isNotNull, defaultValue: $0.defaultValueSQL,
                    primaryKeyIndex: $0.primaryKeyIndex > 0 ? $0.primaryKeyIndex : nil)
            },
            primaryKey: primaryKey.columns,
            hasExplicitPrimaryKey: !primaryKey.isRowID,
            foreignKeys: try db.foreignKeys(on: name).map {
                DatabaseReport.ForeignKey(columns: $0.originColumns, destinationTable: $0.destinationTable, destinationColumns: $0.destinationColumns)
            },
            indexes: try db.indexes(on: name).map {
                DatabaseReport.Index(name: $0.name, columns: $0.columns, unique: $0.isUnique)
            },
            error: nil)
    }

    private static func inferAssociations(_ tables: [DatabaseReport.Table], db: Database) throws
        -> ([DatabaseReport.Association], [DatabaseReport.Ambiguity])
    {
        var associations: [DatabaseReport.Association] = []
        var ambiguities: [DatabaseReport.Ambiguity] = []
        for table in tables {
            let byDestination = Dictionary(grouping: table.foreignKeys, by: { $0.destinationTable.lowercased() })
            for (_, foreignKeys) in byDestination.sorted(by: { $0.key < $1.key }) {
                let ambiguous = foreignKeys.count > 1
                let destination = foreignKeys[0].destinationTable
                if ambiguous {
                    ambiguities.append(DatabaseReport.Ambiguity(
                        from: table.name, to: destination,
                        foreignKeys: foreignKeys.map(\.columns),
                        advice: "Ambiguous foreign key from \(table.name) to \(destination): use "
                            + foreignKeys.map { "ForeignKey(\(swiftArray($0.columns)))" }.joined(separator: " or ")))
                }
                for foreignKey in foreignKeys {
                    let using = ambiguous ? ", using: ForeignKey(\(swiftArray(foreignKey.columns)))" : ""
                    let destinationType = typeName(destination)
                    let originType = typeName(table.name)
                    associations.append(DatabaseReport.Association(
                        kind: "belongsTo", table: table.name, destination: destination, foreignKey: foreignKey.columns,
                        through: nil, needsExplicitForeignKey: ambiguous,
                        declaration: "static let \(property(for: foreignKey, destination: destination)) = belongsTo(\(destinationType).self\(using))"))
                    let unique = (try? db.table(table.name, hasUniqueKey: foreignKey.columns)) ?? false
                    let kind = unique ? "hasOne" : "hasMany"
                    let key = unique ? Inflections.singular(lowerFirst(table.name)) : Inflections.plural(lowerFirst(table.name))
                    associations.append(DatabaseReport.Association(
                        kind: kind, table: destination, destination: table.name, foreignKey: foreignKey.columns,
                        through: nil, needsExplicitForeignKey: ambiguous,
                        declaration: "static let \(key) = \(kind)(\(originType).self\(using))"))
                }
            }
            // A join table: exactly two foreign keys, to two different
            // tables, covering its primary key or its columns.
            let destinations = Set(table.foreignKeys.map { $0.destinationTable.lowercased() })
            if table.foreignKeys.count == 2, destinations.count == 2 {
                let first = table.foreignKeys[0]
                let second = table.foreignKeys[1]
                for (origin, target) in [(first, second), (second, first)] {
                    let via = Inflections.plural(lowerFirst(table.name))
                    let name = Inflections.plural(lowerFirst(target.destinationTable))
                    associations.append(DatabaseReport.Association(
                        kind: "hasManyThrough", table: origin.destinationTable, destination: target.destinationTable,
                        foreignKey: target.columns, through: table.name, needsExplicitForeignKey: false,
                        declaration: "static let \(name) = hasMany(\(typeName(target.destinationTable)).self, through: \(via), using: \(typeName(table.name)).\(property(for: target, destination: target.destinationTable)))"))
                }
            }
        }
        return (associations, ambiguities)
    }

    private static func swiftArray(_ columns: [String]) -> String {
        "[" + columns.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
    }

    /// `authorId` → `author`; otherwise the destination table.
    private static func property(for foreignKey: DatabaseReport.ForeignKey, destination: String) -> String {
        if foreignKey.columns.count == 1 {
            let column = foreignKey.columns[0]
            for suffix in ["Id", "_id", "ID", "Code", "_code"] where column.hasSuffix(suffix) && column.count > suffix.count {
                return String(column.dropLast(suffix.count))
            }
        }
        return Inflections.singular(lowerFirst(destination))
    }

    private static func lowerFirst(_ name: String) -> String {
        name.prefix(1).lowercased() + name.dropFirst()
    }

    /// `person` → `Person`, `book_tag` → `BookTag`.
    static func typeName(_ table: String) -> String {
        Inflections.singular(table).split(separator: "_").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }
}

/// Simple English inflections for the names the inspector suggests.
enum Inflections {
    static func plural(_ word: String) -> String {
        let lower = word.lowercased()
        if lower.hasSuffix("person") { return String(word.dropLast(6)) + (word.hasSuffix("Person") ? "People" : "people") }
        if lower.hasSuffix("s") || lower.hasSuffix("x") || lower.hasSuffix("ch") || lower.hasSuffix("sh") { return word + "es" }
        if lower.hasSuffix("y"), let before = lower.dropLast().last, !"aeiou".contains(before) { return word.dropLast() + "ies" }
        return word + "s"
    }

    static func singular(_ word: String) -> String {
        let lower = word.lowercased()
        if lower.hasSuffix("people") { return String(word.dropLast(6)) + "person" }
        if lower.hasSuffix("ies") { return word.dropLast(3) + "y" }
        if lower.hasSuffix("sses") || lower.hasSuffix("xes") || lower.hasSuffix("ches") || lower.hasSuffix("shes") { return String(word.dropLast(2)) }
        if lower.hasSuffix("s") && !lower.hasSuffix("ss") && !lower.hasSuffix("us") { return String(word.dropLast()) }
        return word
    }
}
