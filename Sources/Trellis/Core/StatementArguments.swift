import TrellisSQLite

/// The values bound to the parameters of a statement: positional (`?`)
/// and named (`:name`, `@name`, `$name`).
///
/// ```swift
/// try db.execute(
///     sql: "INSERT INTO player (name, score) VALUES (?, ?)",
///     arguments: ["Arthur", 1000])
///
/// try db.execute(
///     sql: "UPDATE player SET score = :score WHERE id = :id",
///     arguments: ["score": 1000, "id": 1])
/// ```
public struct StatementArguments: Hashable, Sendable {
    /// The positional values, in order.
    public var values: [DatabaseValue]

    /// The named values, by name without prefix.
    public var namedValues: [String: DatabaseValue]

    /// Whether there is no argument at all.
    public var isEmpty: Bool { values.isEmpty && namedValues.isEmpty }

    /// Creates empty arguments.
    public init() {
        values = []
        namedValues = [:]
    }

    /// Creates positional arguments from a sequence of values.
    public init<S: Sequence>(_ sequence: S) where S.Element == (any DatabaseValueConvertible)? {
        values = sequence.map { $0?.databaseValue ?? .null }
        namedValues = [:]
    }

    /// Creates positional arguments from a sequence of values of one type.
    public init<S: Sequence>(_ sequence: S) where S.Element: DatabaseValueConvertible {
        values = sequence.map(\.databaseValue)
        namedValues = [:]
    }

    /// Creates named arguments from a dictionary.
    public init(_ dictionary: [String: (any DatabaseValueConvertible)?]) {
        values = []
        namedValues = dictionary.mapValues { $0?.databaseValue ?? .null }
    }

    /// Creates positional arguments from values of unknown types, such as
    /// decoded JSON; nil when one of them is not a database value.
    ///
    /// ```swift
    /// let payload: [Any] = ["Arthur", 1000]
    /// guard let arguments = StatementArguments(payload) else { throw InvalidInput() }
    /// ```
    public init?(_ array: [Any]) {
        var values: [DatabaseValue] = []
        values.reserveCapacity(array.count)
        for element in array {
            guard let value = DatabaseValue(anyValue: element) else { return nil }
            values.append(value)
        }
        self.init(values: values)
    }

    /// Creates named arguments from values of unknown types, such as
    /// decoded JSON; nil when a key is not a string or a value is not a
    /// database value. (A dictionary literal picks the initializer that can
    /// not fail.)
    ///
    /// ```swift
    /// let payload: [String: Any] = ["name": "Arthur"]
    /// guard let arguments = StatementArguments(payload) else { throw InvalidInput() }
    /// ```
    public init?(_ dictionary: [AnyHashable: Any]) {
        var namedValues: [String: DatabaseValue] = [:]
        for (key, element) in dictionary {
            guard let name = key.base as? String, let value = DatabaseValue(anyValue: element) else { return nil }
            namedValues[name] = value
        }
        self.init(namedValues: namedValues)
    }

    /// Creates arguments from database values.
    public init(values: [DatabaseValue] = [], namedValues: [String: DatabaseValue] = [:]) {
        self.values = values
        self.namedValues = namedValues
    }

    /// Appends the values of `other`; a named value of `other` replaces one
    /// of the same name. Returns the named values that were replaced.
    ///
    /// ```swift
    /// var arguments: StatementArguments = ["name": "Arthur"]
    /// let replaced = arguments.append(contentsOf: ["name": "Barbara"])  // ["name": "Arthur"]
    /// ```
    @discardableResult
    public mutating func append(contentsOf other: StatementArguments) -> [String: DatabaseValue] {
        values.append(contentsOf: other.values)
        var replaced: [String: DatabaseValue] = [:]
        for (name, value) in other.namedValues {
            if let old = namedValues.updateValue(value, forKey: name) { replaced[name] = old }
        }
        return replaced
    }

    /// The values of both: positional values in order, and the named
    /// values of both (those of `rhs` replace those of `lhs` of the same
    /// name).
    public static func + (lhs: StatementArguments, rhs: StatementArguments) -> StatementArguments {
        var result = lhs
        result.append(contentsOf: rhs)
        return result
    }

    /// The values of both, the named values of `rhs` replacing those of
    /// `lhs` of the same name: GRDB's operator for arguments that may
    /// share names.
    ///
    /// ```swift
    /// let arguments: StatementArguments = ["name": "Arthur"] &+ ["name": "Barbara"]  // ["name": "Barbara"]
    /// ```
    public static func &+ (lhs: StatementArguments, rhs: StatementArguments) -> StatementArguments {
        lhs + rhs
    }

    public static func += (lhs: inout StatementArguments, rhs: StatementArguments) {
        lhs.append(contentsOf: rhs)
    }
}

extension StatementArguments: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: (any DatabaseValueConvertible)?...) {
        self.init(elements)
    }
}

extension StatementArguments: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, (any DatabaseValueConvertible)?)...) {
        values = []
        namedValues = Dictionary(elements.map { ($0.0, $0.1?.databaseValue ?? .null) }) { _, last in last }
    }
}

extension StatementArguments: CustomStringConvertible {
    public var description: String {
        // As GRDB prints them: `["a", 1]`, `["id": 1, "name": "a"]`, named
        // values first (here sorted by name, for a stable output).
        let positional = values.map(\.description)
        let named = namedValues.sorted { $0.key < $1.key }.map { "\(String(reflecting: $0.key)): \($0.value)" }
        return "[" + (named + positional).joined(separator: ", ") + "]"
    }
}
