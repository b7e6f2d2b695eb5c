import Trellis

// Unsigned 64-bit integers span all their range in an object store, as in
// ObjectBox (ids, hashes, serial numbers): SQLite keeps them as the signed
// integers of the same bits, where Trellis's records would turn the values
// above Int64.max into doubles. Equality, lists and the `.unsigned` order
// flag see the whole range; `<` and `>` compare such values as the negative
// integers that SQLite holds.
extension DatabaseValueConvertible {
    /// The value as the store writes and compares it.
    var storedDatabaseValue: DatabaseValue {
        if let unsigned = self as? UInt64 { return Int64(bitPattern: unsigned).databaseValue }
        return databaseValue
    }

    /// The value that the store wrote as `dbValue`.
    static func fromStoredDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        if Self.self == UInt64.self, let signed = Int64.fromDatabaseValue(dbValue) {
            return UInt64(bitPattern: signed) as? Self
        }
        return fromDatabaseValue(dbValue)
    }
}
