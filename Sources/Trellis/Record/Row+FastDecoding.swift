import TrellisSQLite

// Non-generic readers of the primitive values of a row, for the Codable
// decoder: its containers are generic over the record and coding keys, so
// that generic row accessors would not be specialized there.

extension Row {
    @usableFromInline
    func fastInt64(atIndex index: Int, as type: Any.Type, record: Any.Type) throws -> Int64 {
        if let sqliteStatement {
            let column = CInt(offset + index)
            if sqlite3_column_type(sqliteStatement, column) == SQLITE_INTEGER {
                return sqlite3_column_int64(sqliteStatement, column)
            }
        }
        let dbValue = databaseValue(atIndex: index)
        guard let value = Int64.fromDatabaseValue(dbValue) else {
            throw RowDecodingError.valueMismatch(type, value: dbValue, index: index, row: self).forRecord(record)
        }
        return value
    }

    @usableFromInline
    func fastDouble(atIndex index: Int, record: Any.Type) throws -> Double {
        if let sqliteStatement {
            let column = CInt(offset + index)
            switch sqlite3_column_type(sqliteStatement, column) {
            case SQLITE_FLOAT: return sqlite3_column_double(sqliteStatement, column)
            case SQLITE_INTEGER: return Double(sqlite3_column_int64(sqliteStatement, column))
            default: break
            }
        }
        let dbValue = databaseValue(atIndex: index)
        guard let value = Double.fromDatabaseValue(dbValue) else {
            throw RowDecodingError.valueMismatch(Double.self, value: dbValue, index: index, row: self).forRecord(record)
        }
        return value
    }

    @usableFromInline
    func fastString(atIndex index: Int, record: Any.Type) throws -> String {
        if let sqliteStatement {
            let column = CInt(offset + index)
            if sqlite3_column_type(sqliteStatement, column) == SQLITE_TEXT {
                return String(sqliteText: sqliteStatement, index: column)
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
            let column = CInt(offset + index)
            if sqlite3_column_type(sqliteStatement, column) == SQLITE_INTEGER {
                return sqlite3_column_int64(sqliteStatement, column) != 0
            }
        }
        let dbValue = databaseValue(atIndex: index)
        guard let value = Bool.fromDatabaseValue(dbValue) else {
            throw RowDecodingError.valueMismatch(Bool.self, value: dbValue, index: index, row: self).forRecord(record)
        }
        return value
    }
}
