/// The number that a text value spells in full, as SQLite writes numeric
/// literals: `'42'`, `'-3.5'`, `'1e3'`, with optional surrounding spaces.
///
/// SQLite reads the longest numeric prefix of any text (`'20 small cigars'`
/// reads as 20, `'abc'` as 0): a value converts from text only when the
/// whole text is a number, so that no conversion drops characters.
enum NumericText {
    /// A number, as SQLite would store it in a column of NUMERIC affinity.
    enum Number {
        case integer(Int64)
        case real(Double)
    }

    /// The number spelled by `text`, or nil when `text` is not a number.
    static func number(in text: String) -> Number? {
        var text = text
        return text.withUTF8 { number(in: $0) }
    }

    private static func number(in bytes: UnsafeBufferPointer<UInt8>) -> Number? {
        var start = 0
        var end = bytes.count
        while start < end && isSpace(bytes[start]) { start += 1 }
        while end > start && isSpace(bytes[end - 1]) { end -= 1 }
        var index = start
        if index < end && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) { index += 1 }
        var digitCount = 0
        while index < end && isDigit(bytes[index]) { index += 1; digitCount += 1 }
        var isInteger = true
        if index < end && bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            while index < end && isDigit(bytes[index]) { index += 1; digitCount += 1 }
        }
        guard digitCount > 0 else { return nil }
        if index < end && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")) {
            isInteger = false
            index += 1
            if index < end && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) { index += 1 }
            var exponentDigitCount = 0
            while index < end && isDigit(bytes[index]) { index += 1; exponentDigitCount += 1 }
            guard exponentDigitCount > 0 else { return nil }
        }
        guard index == end else { return nil }
        let literal = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        // An integer too large for 64 bits is a real, as in SQLite.
        if isInteger, let integer = Int64(literal) { return .integer(integer) }
        return Double(literal).map { .real($0) }
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    /// The spaces that SQLite skips around a number.
    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
    }
}
