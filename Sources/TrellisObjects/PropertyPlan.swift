import Trellis

/// How the store reads and writes the properties of one entity type that
/// the coding containers receive as generic values: relations, column
/// values of other types (`Date`, `UUID`...), and values stored as JSON.
///
/// Telling them apart takes protocol conformance lookups, which cost more
/// than the rest of the decoding of an object. A synthesized `Codable`
/// conformance visits the same properties in the same order for every
/// object, so the plan remembers each property by its position in that
/// visit: later objects pay a type comparison instead. A type whose visit
/// varies (a hand-written conformance) only refills the plan.
final class PropertyPlan {
    // Only touched inside database accesses, which the store's queue
    // serializes.

    enum Kind {
        case toOne(any AnyToOne.Type)
        case toMany(any AnyToMany.Type)
        case value(any DatabaseValueConvertible.Type)
        /// `[UInt8]`, stored as a blob like `Data`, as in ObjectBox.
        case bytes
        /// A `RawRepresentable` type (an enum) whose raw value is stored in
        /// a column, as in ObjectBox: queries compare raw values.
        case rawValue(any RawValueConverter)
        case json
    }

    /// A class, so that the containers that look a property up for every
    /// object retain one reference instead of its fields.
    final class Property {
        let type: ObjectIdentifier
        let key: String
        let kind: Kind
        /// The column of the property: `spouseId` for a `spouse` relation.
        let column: String

        init(type: ObjectIdentifier, key: String, kind: Kind, column: String) {
            self.type = type
            self.key = key
            self.kind = kind
            self.column = column
        }
    }

    @exclusivity(unchecked) private var properties: [Property] = []

    /// The property visited at `position` in the visit of an object.
    func property(at position: Int, type: Any.Type, key: String) -> Property {
        let identifier = ObjectIdentifier(type)
        if position < properties.count {
            let known = properties[position]
            if known.type == identifier && known.key == key { return known }
        }
        let property = Self.classify(type, identifier: identifier, key: key)
        if position < properties.count {
            properties[position] = property
        } else if position == properties.count {
            properties.append(property)
        }
        return property
    }

    private static func classify(_ type: Any.Type, identifier: ObjectIdentifier, key: String) -> Property {
        if let toOne = type as? any AnyToOne.Type {
            return Property(type: identifier, key: key, kind: .toOne(toOne), column: key + "Id")
        }
        if let toMany = type as? any AnyToMany.Type {
            return Property(type: identifier, key: key, kind: .toMany(toMany), column: key)
        }
        if type == [UInt8].self {
            return Property(type: identifier, key: key, kind: .bytes, column: key)
        }
        if let convertible = type as? any DatabaseValueConvertible.Type {
            return Property(type: identifier, key: key, kind: .value(convertible), column: key)
        }
        if let raw = type as? any RawRepresentable.Type, let converter = rawValueConverter(raw) {
            return Property(type: identifier, key: key, kind: .rawValue(converter), column: key)
        }
        return Property(type: identifier, key: key, kind: .json, column: key)
    }

    private static func rawValueConverter<R: RawRepresentable>(_ type: R.Type) -> (any RawValueConverter)? {
        guard let rawType = R.RawValue.self as? any DatabaseValueConvertible.Type else { return nil }
        return RawConverter<R>(rawType: rawType)
    }
}

/// Converts the values of a `RawRepresentable` type to and from the
/// database values of their raw values.
protocol RawValueConverter {
    func databaseValue(of value: Any) -> DatabaseValue?
    func value(from dbValue: DatabaseValue) -> Any?
}

struct RawConverter<R: RawRepresentable>: RawValueConverter {
    let rawType: any DatabaseValueConvertible.Type

    func databaseValue(of value: Any) -> DatabaseValue? {
        guard let value = value as? R, let raw = value.rawValue as? any DatabaseValueConvertible else { return nil }
        return raw.databaseValue
    }

    func value(from dbValue: DatabaseValue) -> Any? {
        if let raw = rawType.fromDatabaseValue(dbValue) as? R.RawValue, let value = R(rawValue: raw) {
            return value
        }
        return nil
    }
}

extension DatabaseValueConvertible {
    /// The database value of `value`, if it is of this type.
    static func databaseValue(of value: Any) -> DatabaseValue? {
        (value as? Self)?.storedDatabaseValue
    }
}
