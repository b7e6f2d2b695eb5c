import Foundation

/// A type that is tied to a database table, and builds requests on it.
///
/// ```swift
/// struct Place: TableRecord { }
/// print(Place.databaseTableName) // "place"
///
/// struct Player: TableRecord {
///     static let databaseTableName = "players"
///     enum Columns {
///         static let name = Column("name")
///     }
/// }
/// let request = Player.filter { $0.name == "Arthur" }
/// ```
public protocol TableRecord {
    /// The columns of the record, for the query interface: a nested
    /// `Columns` type (an enum of `ColumnExpression` cases, or static
    /// `Column` properties) is found by name.
    associatedtype Columns = AnyColumns

    /// The name of the table. Default: the type name with a lowercase
    /// first letter (`Place` → `place`, `HTTPRequest` → `httpRequest`).
    static var databaseTableName: String { get }

    /// The columns selected by requests. Default: all columns.
    static var databaseSelection: [any SQLSelectable] { get }
}

/// The columns of a record that declares no `Columns` type.
public enum AnyColumns {}

extension TableRecord {
    public static var databaseTableName: String {
        DefaultTableNames.shared.name(for: self)
    }

    public static var databaseSelection: [any SQLSelectable] {
        [AllColumns()]
    }

    /// The columns of the record, as given to request closures:
    /// `Player.filter { $0.name == "Arthur" }`.
    public typealias DatabaseComponents = Columns.Type

    /// The columns of the record, as given to request closures: the
    /// `Columns` type.
    ///
    /// ```swift
    /// Player.databaseComponents.score // Column("score")
    /// let request = Player.order(\.score.desc)
    /// ```
    public static var databaseComponents: DatabaseComponents { Columns.self }

    static var defaultSelection: [SQLSelection] {
        databaseSelection.map(\.sqlSelection)
    }
}

/// The default table names, computed once per type: they derive from the
/// type name, which is slow to obtain.
final class DefaultTableNames: @unchecked Sendable {
    static let shared = DefaultTableNames()

    // Guarded by `lock`, which makes the run-time exclusivity check
    // redundant.
    @exclusivity(unchecked) private var names: [ObjectIdentifier: String] = [:]
    private let lock = NSLock()

    func name(for type: Any.Type) -> String {
        let key = ObjectIdentifier(type)
        lock.lock()
        if let name = names[key] {
            lock.unlock()
            return name
        }
        lock.unlock()
        let name = defaultDatabaseTableName(String(describing: type))
        lock.lock()
        names[key] = name
        lock.unlock()
        return name
    }
}

/// `Place` → `place`, `HTTPRequest` → `httpRequest`, `TOEFL` → `toefl`,
/// `Outer.Inner<T>` → `inner`.
func defaultDatabaseTableName(_ typeName: String) -> String {
    var name = Substring(typeName)
    if let generic = name.firstIndex(of: "<") { name = name[..<generic] }
    if let dot = name.lastIndex(of: ".") { name = name[name.index(after: dot)...] }
    let characters = Array(name)
    guard let first = characters.first, first.isUppercase else { return String(name) }
    var prefixEnd = 0
    while prefixEnd < characters.count && characters[prefixEnd].isUppercase { prefixEnd += 1 }
    if prefixEnd == characters.count {
        return String(name).lowercased()
    }
    if prefixEnd > 1 {
        // "HTTPRequest": the last capital starts the next word.
        prefixEnd -= 1
    }
    return String(characters[..<prefixEnd]).lowercased() + String(characters[prefixEnd...])
}
