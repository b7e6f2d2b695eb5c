import TrellisSQLite

/// A custom SQL aggregate, such as `SUM` or `MAX`, written in Swift.
///
/// SQLite makes a new aggregate for each group of rows, calls ``step(_:)``
/// with the arguments of each row, and then ``finalize()`` for the result.
/// Register it with a ``DatabaseFunction``:
///
/// ```swift
/// struct MaxLength: DatabaseAggregate {
///     var maxLength = 0
///
///     mutating func step(_ dbValues: [DatabaseValue]) {
///         guard let string = String.fromDatabaseValue(dbValues[0]) else { return }
///         maxLength = max(maxLength, string.count)
///     }
///
///     func finalize() -> DatabaseValueConvertible? { maxLength }
/// }
///
/// let maxLength = DatabaseFunction("maxLength", argumentCount: 1, pure: true, aggregate: MaxLength.self)
///
/// var config = Configuration()
/// config.prepareDatabase { db in db.add(function: maxLength) }
/// let dbQueue = try DatabaseQueue(path: path, configuration: config)
/// try dbQueue.read { db in
///     try Int.fetchOne(db, sql: "SELECT maxLength(name) FROM player")
///     try Int.fetchOne(db, Player.select(maxLength(Column("name"))))
/// }
/// ```
///
/// An error thrown by `step` or `finalize` fails the statement, with the
/// error's description as its message.
public protocol DatabaseAggregate {
    /// A new aggregate, before its first row.
    init()

    /// Adds one row's arguments to the aggregate.
    ///
    /// - Throws: Any error, to fail the statement with the error's description
    ///   as its message.
    mutating func step(_ dbValues: [DatabaseValue]) throws

    /// The result of the aggregate, after its last row.
    ///
    /// - Throws: Any error, to fail the statement with the error's description
    ///   as its message.
    func finalize() throws -> (any DatabaseValueConvertible)?
}

/// One aggregation in progress. SQLite's aggregate context, a buffer that
/// lives as long as the group, holds a retained pointer to it.
final class AggregateState {
    private var aggregate: any DatabaseAggregate
    /// After a failed step the statement is aborted: finalizing only
    /// releases the state.
    private var hasFailed = false

    private init(aggregate: any DatabaseAggregate) {
        self.aggregate = aggregate
    }

    /// SQLite's xStep.
    static func step(_ context: OpaquePointer?, _ argc: CInt, _ argv: UnsafeMutablePointer<OpaquePointer?>?) {
        guard let slot = sqlite3_aggregate_context(context, CInt(MemoryLayout<UnsafeMutableRawPointer?>.size)) else {
            sqlite3_result_error_nomem(context)
            return
        }
        let state: AggregateState
        if let pointer = slot.load(as: UnsafeMutableRawPointer?.self) {
            state = Unmanaged<AggregateState>.fromOpaque(pointer).takeUnretainedValue()
        } else {
            guard let newState = makeState(context) else { return }
            slot.storeBytes(of: Unmanaged.passRetained(newState).toOpaque(), as: UnsafeMutableRawPointer?.self)
            state = newState
        }
        guard !state.hasFailed else { return }
        do {
            try state.aggregate.step(DatabaseFunction.arguments(argc, argv))
        } catch {
            state.hasFailed = true
            DatabaseFunction.setError(error, of: context)
        }
    }

    /// SQLite's xFinal: called once per group, also for a group without
    /// rows (then no step made a state) and after a failed step.
    static func finalize(_ context: OpaquePointer?) {
        let state: AggregateState
        if let slot = sqlite3_aggregate_context(context, 0),
           let pointer = slot.load(as: UnsafeMutableRawPointer?.self)
        {
            slot.storeBytes(of: nil, as: UnsafeMutableRawPointer?.self)
            state = Unmanaged<AggregateState>.fromOpaque(pointer).takeRetainedValue()
        } else {
            guard let newState = makeState(context) else { return }
            state = newState
        }
        guard !state.hasFailed else { return }
        do {
            try DatabaseFunction.setResult(state.aggregate.finalize(), of: context)
        } catch {
            DatabaseFunction.setError(error, of: context)
        }
    }

    private static func makeState(_ context: OpaquePointer?) -> AggregateState? {
        guard let function = DatabaseFunction.function(of: context),
              case .aggregate(let type) = function.kind
        else {
            sqlite3_result_error(context, "not an aggregate function", -1)
            return nil
        }
        return AggregateState(aggregate: type.init())
    }
}
