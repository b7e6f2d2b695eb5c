// The conversions of database values into numbers that the standard types
// share: a value converts when it converts without a loss, and never the
// way SQLite's column functions do (`'abc'` as 0, 3.7 as 3). The
// ValueConversions article lists them.

extension DatabaseValue {
    /// The integer that the value holds: an integer that fits, a real with
    /// no fraction that fits, or text that spells such a number; nil
    /// otherwise.
    func losslessInteger<Integer: FixedWidthInteger>(_ type: Integer.Type) -> Integer? {
        switch storage {
        case .int64(let value):
            return Integer(exactly: value)
        case .double(let value):
            // nil for a fraction, for NaN and infinities, and out of range.
            return Integer(exactly: value)
        case .string(let text):
            switch NumericText.number(in: text) {
            case .integer(let value): return Integer(exactly: value)
            case .real(let value): return Integer(exactly: value)
            case nil: return nil
            }
        case .null, .blob:
            return nil
        }
    }

    /// The real number that the value holds: an integer (the nearest
    /// double to a very large one), a real, or text that spells a number;
    /// nil otherwise.
    func losslessDouble() -> Double? {
        switch storage {
        case .int64(let value):
            return Double(value)
        case .double(let value):
            return value
        case .string(let text):
            switch NumericText.number(in: text) {
            case .integer(let value): return Double(value)
            case .real(let value): return value
            case nil: return nil
            }
        case .null, .blob:
            return nil
        }
    }
}

extension DatabaseValue {
    /// The value as SQLite's comparisons may find it equal to another
    /// after a conversion: a number, or text that spells one, as the same
    /// number; other text without the case of its ASCII letters (NOCASE).
    var looseComparisonKey: DatabaseValue {
        switch storage {
        case .int64, .null, .blob:
            return self
        case .double(let value):
            return Int64(exactly: value).map { DatabaseValue(storage: .int64($0)) } ?? self
        case .string(let text):
            if let integer = losslessInteger(Int64.self) { return DatabaseValue(storage: .int64(integer)) }
            if let double = losslessDouble() {
                return Int64(exactly: double).map { DatabaseValue(storage: .int64($0)) } ?? DatabaseValue(storage: .double(double))
            }
            let folded = String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
                ("A"..."Z").contains(scalar) ? Unicode.Scalar(scalar.value + 32) ?? scalar : scalar
            }))
            return DatabaseValue(storage: .string(folded))
        }
    }
}
