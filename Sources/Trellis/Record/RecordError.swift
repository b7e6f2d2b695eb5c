/// An error thrown by record methods.
///
/// ```swift
/// do {
///     let player = try Player.find(db, id: 42)
/// } catch RecordError.recordNotFound(let table, let key) {
///     print("no \(table) with key \(key)")
/// }
/// ```
///
/// Its description is GRDB's: `Key not found in table player: [id:42]`.
public enum RecordError: Error, CustomStringConvertible, Sendable {
    /// No row matches the primary key of the record.
    case recordNotFound(databaseTableName: String, key: [String: DatabaseValue])

    public var description: String {
        switch self {
        case let .recordNotFound(table, key):
            // GRDB's words: `Key not found in table player: [id:42]`.
            let keyDescription = key.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: " ")
            return "Key not found in table \(table): [\(keyDescription)]"
        }
    }
}

/// The former name of ``RecordError``, which GRDB 7 keeps deprecated.
@available(*, deprecated, renamed: "RecordError")
public typealias PersistenceError = RecordError

extension DatabaseError {
    /// The error of an `around` persistence callback of `record` that did
    /// not run the operation, in GRDB's words.
    @usableFromInline
    static func callbackNotCalled(_ callback: String, of record: Any.Type) -> DatabaseError {
        DatabaseError(
            resultCode: .SQLITE_MISUSE,
            message: "Incorrect implementation of the `\(record).\(callback)` persistence callback: "
                + "the action function was not called, or its error was not rethrown.")
    }
}
