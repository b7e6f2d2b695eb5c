/// The type that makes the values of a ``ValueObservation``: it fetches
/// from the database, then turns what it fetched into the value to
/// deliver, or into nothing (a duplicate, for example).
///
/// The observations made by ``ValueObservation/tracking(_:)`` and its
/// operators name their reducers in their type, as GRDB does:
///
/// ```swift
/// let observation: ValueObservation<ValueReducers.Fetch<[Player]>> = ValueObservation.tracking { db in
///     try Player.fetchAll(db)
/// }
/// let names: ValueObservation<ValueReducers.Map<ValueReducers.Fetch<[Player]>, [String]>> = observation
///     .map { players in players.map(\.name) }
///
/// // Code that accepts any observation:
/// func observe<Reducer: ValueReducer>(_ observation: ValueObservation<Reducer>) { ... }
/// ```
///
/// The requirements, whose names start with an underscore, are used by
/// the observation: applications use the reducers of ``ValueReducers``,
/// and do not implement their own. A reducer is `Sendable`: each run of
/// an observation makes its own, and uses it from one fetch at a time.
public protocol ValueReducer: Sendable {
    /// What the reducer fetches.
    associatedtype Fetched
    /// The values that the observation delivers.
    associatedtype Value: Sendable

    /// Fetches from the database, in a database access of the observation.
    func _fetch(_ db: Database) throws -> Fetched

    /// The value to deliver for what was fetched, or nil for no value.
    mutating func _value(_ fetched: Fetched) throws -> Value?
}

/// The namespace of the reducers of ``ValueObservation``, whose types
/// name them: `ValueObservation<ValueReducers.Fetch<[Player]>>`.
public enum ValueReducers {
    /// The reducer of an observation that was not given a fetch yet: the
    /// `Reducer` of `ValueObservation.tracking { ... }` before the call
    /// returns an observation of ``Fetch``. It is never started.
    public struct Auto: ValueReducer {
        public func _fetch(_ db: Database) throws {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "ValueReducers.Auto fetches nothing: create observations with ValueObservation.tracking(_:)")
        }

        public func _value(_ fetched: Void) -> Never? {
            nil
        }
    }

    /// The reducer of ``ValueObservation/tracking(_:)``: the value is what
    /// the fetch returns.
    public struct Fetch<Value: Sendable>: ValueReducer {
        let fetch: @Sendable (Database) throws -> Value

        public func _fetch(_ db: Database) throws -> Value {
            try fetch(db)
        }

        public func _value(_ fetched: Value) -> Value? {
            fetched
        }
    }

    /// The reducer of ``ValueObservation/map(_:)``: the value is the
    /// transformed value of `Base`.
    public struct Map<Base: ValueReducer, Value: Sendable>: ValueReducer {
        var base: Base
        let transform: @Sendable (Base.Value) throws -> Value

        public func _fetch(_ db: Database) throws -> Base.Fetched {
            try base._fetch(db)
        }

        public mutating func _value(_ fetched: Base.Fetched) throws -> Value? {
            try base._value(fetched).map(transform)
        }
    }

    /// The reducer of ``ValueObservation/removeDuplicates(by:)``: the
    /// values of `Base`, without those that duplicate the one delivered
    /// before them.
    public struct RemoveDuplicates<Base: ValueReducer>: ValueReducer {
        public typealias Value = Base.Value
        var base: Base
        let isDuplicate: @Sendable (Base.Value, Base.Value) -> Bool
        /// The last delivered value.
        var lastValue: Base.Value?

        public func _fetch(_ db: Database) throws -> Base.Fetched {
            try base._fetch(db)
        }

        public mutating func _value(_ fetched: Base.Fetched) throws -> Base.Value? {
            guard let value = try base._value(fetched) else { return nil }
            if let lastValue, isDuplicate(lastValue, value) { return nil }
            lastValue = value
            return value
        }
    }

    /// The reducer of ``ValueObservation/handleEvents(willStart:willFetch:willTrackRegion:databaseDidChange:didReceiveValue:didFail:didCancel:)``
    /// and ``ValueObservation/print(_:to:)``: the values of `Base`, each
    /// told to `didReceiveValue`.
    public struct Trace<Base: ValueReducer>: ValueReducer {
        public typealias Value = Base.Value
        var base: Base
        let didReceiveValue: (@Sendable (Base.Value) -> Void)?

        public func _fetch(_ db: Database) throws -> Base.Fetched {
            try base._fetch(db)
        }

        public mutating func _value(_ fetched: Base.Fetched) throws -> Base.Value? {
            let value = try base._value(fetched)
            if let value, let didReceiveValue { didReceiveValue(value) }
            return value
        }
    }
}
