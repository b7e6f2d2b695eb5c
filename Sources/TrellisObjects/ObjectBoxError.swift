import Trellis

/// The errors that ObjectBox names, for code that catches them:
///
/// ```swift
/// do {
///     try userBox.put(user)
/// } catch ObjectBoxError.uniqueViolation(let message) {
///     print("taken: \(message)")
/// }
/// ```
///
/// A misuse of the store is ``illegalState(message:)``; other failures
/// are the `DatabaseError` of SQLite (a full disk, for example).
public enum ObjectBoxError: Error, CustomStringConvertible, Sendable {
    /// A put would store a value that a unique property already has.
    case uniqueViolation(message: String)
    /// `findUnique()` found several objects, or a property query several
    /// values.
    case nonUniqueResult(message: String)
    /// A put or a remove ran in a read-only transaction.
    case cannotWriteWhileReading(message: String)
    /// The store could not read the objects of a subscription: the
    /// message of the underlying error.
    case dbGeneral(message: String)
    /// A misuse of the store, which the message explains.
    case illegalState(message: String)

    /// The message of the error, without the name of its case.
    public var message: String {
        switch self {
        case .uniqueViolation(let message), .nonUniqueResult(let message), .cannotWriteWhileReading(let message),
             .dbGeneral(let message), .illegalState(let message):
            message
        }
    }

    public var description: String {
        switch self {
        case .uniqueViolation(let message): "Unique violation: \(message)"
        case .nonUniqueResult(let message): "Non-unique result: \(message)"
        case .cannotWriteWhileReading(let message): "Cannot write while reading: \(message)"
        case .dbGeneral(let message): "Database error: \(message)"
        case .illegalState(let message): message
        }
    }

    /// The ObjectBox error of a failure to read the objects of a
    /// subscription.
    static func observing(_ error: any Error) -> ObjectBoxError {
        if let error = translating(error) as? ObjectBoxError { return error }
        return .dbGeneral(message: "\(error)")
    }

    /// The ObjectBox error of a database error, or the error itself.
    static func translating(_ error: any Error) -> any Error {
        guard let error = error as? DatabaseError else { return error }
        switch error.extendedResultCode {
        case .SQLITE_CONSTRAINT_UNIQUE, .SQLITE_CONSTRAINT_PRIMARYKEY:
            return ObjectBoxError.uniqueViolation(message: error.message ?? "\(error)")
        default:
            if error.resultCode == .SQLITE_READONLY {
                return ObjectBoxError.cannotWriteWhileReading(message: error.message ?? "\(error)")
            }
            return error
        }
    }
}
