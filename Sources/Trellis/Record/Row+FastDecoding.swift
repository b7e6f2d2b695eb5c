import TrellisSQLite

// Non-generic readers of the primitive values of a row, for the Codable
// decoder: its containers are generic over the coding keys, so that
// generic row accessors would not be specialized there. Each reads the
// value once (`sqlite3_column_value`) and then its type and content, which
// costs one call into SQLite's column API instead of two.
//
// A value of another storage class converts only without a loss, as
// `fromDatabaseValue` converts it (see the ValueConversions article): the
// text "12" reads as the integer 12, and "abc" throws where SQLite would
// read 0.

extension Row {
    @usableFromInline
    func fastDouble(atIndex index: Int, record: Any.Type, as valueType: Any.Type = Double.self) throws -> Double {
        if let sqliteStatement {
            let value = sqlite3_column_value(sqliteStatement, CInt(offset + index))
            switch sqlite3_value_type(value) {
            case SQLITE_FLOAT: return sqlite3_value_double(value)
            case SQLITE_INTEGER: return Double(sqlite3_value_int64(value))
            default: break
            }
        }
        let dbValue = databaseValue(atIndex: index)
        guard let value = Double.fromDatabaseValue(dbValue) else {
            throw RowDecodingError.valueMismatch(valueType, value: dbValue, index: index, row: self).forRecord(record)
        }
        return value
    }

    @usableFromInline
    func fastString(atIndex index: Int, record: Any.Type) throws -> String {
        if let sqliteStatement {
            if let value = sqlite3_column_value(sqliteStatement, CInt(offset + index)),
               sqlite3_value_type(value) == SQLITE_TEXT
            {
                return String(sqliteValue: value)
            }
        }
        let dbValue = databaseValue(atIndex: index)
        guard let value = String.fromDatabaseValue(dbValue) else {
            throw RowDecodingError.valueMismatch(String.self, value: dbValue, index: index, row: self).forRecord(record)
        }
        return value
    }

    @usableFromInline
    func fastBool(atIndex index: Int, record: Any.Type) throws -> Bool {
        if let sqliteStatement {
            let value = sqlite3_column_value(sqliteStatement, CInt(offset + index))
            switch sqlite3_value_type(value) {
            case SQLITE_INTEGER: return sqlite3_value_int64(value) != 0
            default: break
            }
        }
        let dbValue = databaseValue(atIndex: index)
        guard let value = Bool.fromDatabaseValue(dbValue) else {
            throw RowDecodingError.valueMismatch(Bool.self, value: dbValue, index: index, row: self).forRecord(record)
        }
        return value
    }
}
