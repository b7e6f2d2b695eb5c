/// How a property marked `// objectbox: convert` reads back: an enum
/// stored as its raw value becomes its case again, or the annotation's
/// `default` when the stored value is missing (an object put before the
/// property existed) or names no case (a case of a later version).
///
/// ```swift
/// enum TestEnum: Int {
///     case unknown = 0, first = 100, second = 200
/// }
///
/// @Entity
/// final class EnumEntity {
///     var id: Id = 0
///     // objectbox: convert = { "default": ".unknown" }
///     var custom: TestEnum = .first
/// }
///
/// let seconds = try box.query { EnumEntity.custom == TestEnum.second.rawValue }.find()
/// ```
///
/// The ``Entity()`` macro calls these functions; code that reads such
/// values itself may too.
public enum RawValueConversion {
    /// The case of `rawValue`, else `defaultValue`.
    ///
    /// ```swift
    /// let mood: TestEnum = try RawValueConversion.value(42, default: .unknown, property: "custom")   // .unknown
    /// ```
    ///
    /// - Throws: ``ObjectBoxError/illegalState(message:)`` if `rawValue` is
    ///   nil or names no case and there is no default.
    public static func value<Value: RawRepresentable>(_ rawValue: Value.RawValue?, default defaultValue: Value?, property: String) throws -> Value {
        if let rawValue, let value = Value(rawValue: rawValue) { return value }
        if let defaultValue { return defaultValue }
        let stored = rawValue.map { "the value \($0)" } ?? "no value"
        throw ObjectBoxError.illegalState(message:
            "\(property) holds \(stored), which is no \(Value.self): give a default with `// objectbox: convert = { \"default\": ... }`")
    }

    /// The case of `rawValue`; `defaultValue` when it names no case; nil
    /// when there is no value.
    ///
    /// ```swift
    /// let mood: TestEnum? = RawValueConversion.valueIfPresent(nil, default: .unknown)   // nil
    /// ```
    public static func valueIfPresent<Value: RawRepresentable>(_ rawValue: Value.RawValue?, default defaultValue: Value?) -> Value? {
        guard let rawValue else { return nil }
        return Value(rawValue: rawValue) ?? defaultValue
    }
}
