import Foundation
import TrellisSQLite

/// A collation implemented in Swift, for comparisons that SQLite's
/// built-in collations do not offer: Unicode-aware and localized ones.
///
/// ```swift
/// let authors = try Author.order(Column("name").collating(.localizedCaseInsensitiveCompare)).fetchAll(db)
///
/// let reversed = DatabaseCollation("reversed") { lhs, rhs in
///     rhs.compare(lhs)
/// }
/// db.add(collation: reversed)
/// ```
///
/// The query interface registers a collation on the connection the first
/// time an expression uses it.
public final class DatabaseCollation: Hashable, Sendable {
    /// The name of the collation in SQL.
    public let name: String
    let function: @Sendable (String, String) -> ComparisonResult

    /// A collation named `name` that compares strings with `function`.
    public init(_ name: String, function: @escaping @Sendable (String, String) -> ComparisonResult) {
        self.name = name
        self.function = function
    }

    public static func == (lhs: DatabaseCollation, rhs: DatabaseCollation) -> Bool {
        lhs.name.isEqualIgnoringASCIICase(rhs.name)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name.lowercased())
    }

    /// Compares Unicode scalars, as `String <` does.
    public static let unicodeCompare = DatabaseCollation("swiftCompare") { lhs, rhs in
        lhs < rhs ? .orderedAscending : (lhs == rhs ? .orderedSame : .orderedDescending)
    }

    /// `String.caseInsensitiveCompare`.
    public static let caseInsensitiveCompare = DatabaseCollation("swiftCaseInsensitiveCompare") { lhs, rhs in
        lhs.caseInsensitiveCompare(rhs)
    }

    /// `String.localizedCaseInsensitiveCompare`.
    public static let localizedCaseInsensitiveCompare = DatabaseCollation("swiftLocalizedCaseInsensitiveCompare") { lhs, rhs in
        lhs.localizedCaseInsensitiveCompare(rhs)
    }

    /// `String.localizedCompare`.
    public static let localizedCompare = DatabaseCollation("swiftLocalizedCompare") { lhs, rhs in
        lhs.localizedCompare(rhs)
    }

    /// `String.localizedStandardCompare`, the order of the Finder.
    public static let localizedStandardCompare = DatabaseCollation("swiftLocalizedStandardCompare") { lhs, rhs in
        lhs.localizedStandardCompare(rhs)
    }

    /// The collations every connection knows, as GRDB's do: a table whose
    /// columns use them can be read from any connection, and raw SQL can
    /// name them (`ORDER BY name COLLATE swiftLocalizedCompare`).
    static let builtIn = [unicodeCompare, caseInsensitiveCompare, localizedCaseInsensitiveCompare, localizedCompare, localizedStandardCompare]
}

extension Database {
    /// Makes a collation available to the SQL of this connection.
    public func add(collation: DatabaseCollation) {
        guard let connection = sqliteConnection else {
            recordUnsupportedFeature("add(collation:)")
            return
        }
        let context = Unmanaged.passRetained(collation).toOpaque()
        let code = sqlite3_create_collation_v2(connection, collation.name, SQLITE_UTF8, context, { context, count1, bytes1, count2, bytes2 in
            guard let context else { return 0 }
            let collation = Unmanaged<DatabaseCollation>.fromOpaque(context).takeUnretainedValue()
            let lhs = String(decoding: UnsafeRawBufferPointer(start: bytes1, count: Int(count1)), as: UTF8.self)
            let rhs = String(decoding: UnsafeRawBufferPointer(start: bytes2, count: Int(count2)), as: UTF8.self)
            switch collation.function(lhs, rhs) {
            case .orderedAscending: return -1
            case .orderedSame: return 0
            case .orderedDescending: return 1
            }
        }, { context in
            if let context { Unmanaged<DatabaseCollation>.fromOpaque(context).release() }
        })
        if code != SQLITE_OK {
            Unmanaged<DatabaseCollation>.fromOpaque(context).release()
        }
    }

    /// Removes a collation from the connection: SQL that uses it fails
    /// with "no such collation sequence" until it is added again.
    ///
    /// ```swift
    /// db.remove(collation: reversed)
    /// ```
    public func remove(collation: DatabaseCollation) {
        guard let connection = sqliteConnection else {
            recordUnsupportedFeature("remove(collation:)")
            return
        }
        sqlite3_create_collation_v2(connection, collation.name, SQLITE_UTF8, nil, nil, nil)
        schemaCache.persistent["collation:" + collation.name.lowercased()] = nil
    }

    /// Registers the collation unless the connection already knows it.
    func addIfNeeded(collation: DatabaseCollation) {
        let key = "collation:" + collation.name.lowercased()
        if schemaCache.persistent[key] != nil { return }
        add(collation: collation)
        schemaCache.persistent[key] = true
    }
}

extension Database {
    /// Rebuilds the indexes that use `collation`: run it after the order of
    /// a custom collation has changed (`REINDEX`).
    ///
    /// ```swift
    /// try db.reindex(collation: .localizedCompare)
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if SQLite fails.
    public func reindex(collation: Database.CollationName) throws {
        try execute(sql: "REINDEX \(collation.rawValue.quotedDatabaseIdentifier)")
    }

    /// Rebuilds the indexes that use `collation`: run it after the order of
    /// a custom collation has changed (`REINDEX`).
    ///
    /// ```swift
    /// let collation = DatabaseCollation("byLength") { ... }
    /// db.add(collation: collation)
    /// try db.reindex(collation: collation)
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if SQLite fails.
    public func reindex(collation: DatabaseCollation) throws {
        try execute(sql: "REINDEX \(collation.name.quotedDatabaseIdentifier)")
    }
}
