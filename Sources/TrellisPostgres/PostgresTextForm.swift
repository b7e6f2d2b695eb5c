import Foundation
import PostgresNIO

/// The text that PostgreSQL writes for a value of a type that Trellis has
/// no value for, made from the value's binary form: the `"char"`, `inet`,
/// `cidr` and `interval` types, enums, and arrays. Each text is the one
/// that the type's output function writes, as psql shows it, with the
/// server's default settings (`IntervalStyle` `postgres`,
/// `extra_float_digits` 1, `bytea_output` `hex`). It is also the cast to
/// text of these types, but for an `inet` host, which the cast writes with
/// its netmask (`1.2.3.4/32`), and its output function without.
///
/// An array is the text of its elements. Those of the types that Trellis
/// reads as numbers or blobs are PostgreSQL's text of the same value
/// (`1.5`, `NaN`, the exact digits of a `NUMERIC`, `\x0102` for a
/// `BYTEA`). Those of dates and timestamps are the text of Trellis's value
/// of the type, UTC, which does not depend on the session's `TimeZone` as
/// PostgreSQL's text of a `TIMESTAMPTZ` does: an array of timestamps
/// holds the text that its elements read as one by one.
///
/// The types that it does not know give nil: Trellis does not guess at
/// their binary form.
struct PostgresTextForm {
    /// What the catalog tells of a type that is not built in.
    enum UserType: Sendable {
        /// A type whose binary form is its text: an enum (its label), or a
        /// type that sends its values as text does (`citext`).
        case text
        /// An array of the type of the given identifier.
        case array(element: UInt32)
        /// A type that Trellis does not convert.
        case other
    }

    /// The bytes of a cell do not hold a value of its type.
    struct MalformedValue: Error {}

    /// The types of the database that the cells may have, by identifier.
    var userTypes: [UInt32: UserType] = [:]

    /// The arrays of the built-in types whose text this type writes, by
    /// identifier, with the identifier of their element type.
    static let builtInArrays: [UInt32: UInt32] = [
        1000: 16, // bool[]
        1002: 18, // "char"[]
        1003: 19, // name[]
        1005: 21, // int2[]
        1007: 23, // int4[]
        1009: 25, // text[]
        1014: 1042, // bpchar[]
        1015: 1043, // varchar[]
        1016: 20, // int8[]
        1028: 26, // oid[]
        199: 114, // json[]
        3807: 3802, // jsonb[]
        143: 142, // xml[]
        2951: 2950, // uuid[]
        1041: 869, // inet[]
        651: 650, // cidr[]
        1187: 1186, // interval[]
        1021: 700, // float4[]
        1022: 701, // float8[]
        1231: 1700, // numeric[]
        1001: 17, // bytea[]
        1182: 1082, // date[]
        1115: 1114, // timestamp[]
        1185: 1184, // timestamptz[]
    ]

    /// The text of a value, or nil when Trellis does not know the binary
    /// form of its type. Throws ``MalformedValue`` for bytes that are not
    /// a value of the type.
    func text(of bytes: ByteBuffer, type: UInt32) throws(MalformedValue) -> String? {
        switch type {
        case 16: // bool
            guard bytes.readableBytes == 1, let byte = bytes.getInteger(at: bytes.readerIndex, as: UInt8.self),
                  byte <= 1
            else { throw MalformedValue() }
            return byte == 1 ? "t" : "f"
        case 21:
            guard bytes.readableBytes == 2, let value = bytes.getInteger(at: bytes.readerIndex, as: Int16.self)
            else { throw MalformedValue() }
            return String(value)
        case 23:
            guard bytes.readableBytes == 4, let value = bytes.getInteger(at: bytes.readerIndex, as: Int32.self)
            else { throw MalformedValue() }
            return String(value)
        case 20:
            guard bytes.readableBytes == 8, let value = bytes.getInteger(at: bytes.readerIndex, as: Int64.self)
            else { throw MalformedValue() }
            return String(value)
        case 26: // oid
            guard bytes.readableBytes == 4, let value = bytes.getInteger(at: bytes.readerIndex, as: UInt32.self)
            else { throw MalformedValue() }
            return String(value)
        case 25, 1043, 19, 1042, 114, 142: // text, varchar, name, bpchar, json, xml
            return String(decoding: bytes.readableBytesView, as: UTF8.self)
        case 3802: // jsonb: a version byte, then the JSON text
            guard bytes.getInteger(at: bytes.readerIndex, as: UInt8.self) == 1 else { throw MalformedValue() }
            return String(decoding: bytes.readableBytesView.dropFirst(), as: UTF8.self)
        case 18: // "char": one byte
            return try Self.charText(bytes)
        case 2950: // uuid
            guard bytes.readableBytes == 16, let octets = bytes.getBytes(at: bytes.readerIndex, length: 16)
            else { throw MalformedValue() }
            let uuid = UUID(uuid: (
                octets[0], octets[1], octets[2], octets[3], octets[4], octets[5], octets[6], octets[7],
                octets[8], octets[9], octets[10], octets[11], octets[12], octets[13], octets[14], octets[15]))
            return uuid.uuidString.lowercased()
        case 869, 650: // inet, cidr
            return try Self.networkText(bytes, isCIDR: type == 650)
        case 1186: // interval
            return try Self.intervalText(bytes)
        case 700: // float4
            guard bytes.readableBytes == 4, let bits = bytes.getInteger(at: bytes.readerIndex, as: UInt32.self)
            else { throw MalformedValue() }
            return PostgresFloatText.text(Float(bitPattern: bits))
        case 701: // float8
            guard bytes.readableBytes == 8, let bits = bytes.getInteger(at: bytes.readerIndex, as: UInt64.self)
            else { throw MalformedValue() }
            return PostgresFloatText.text(Double(bitPattern: bits))
        case 1700: // numeric
            guard let text = PostgresNumericValue.text(of: bytes) else { throw MalformedValue() }
            return text
        case 17: // bytea
            return Self.byteaText(bytes)
        case PostgresDateValue.date, PostgresDateValue.timestamp, PostgresDateValue.timestamptz:
            guard let value = PostgresDateValue.value(of: bytes, type: type) else { throw MalformedValue() }
            switch value.storage {
            case .string(let text): return text
            case .double(let seconds): return PostgresFloatText.text(seconds)
            case .int64(let seconds): return String(seconds)
            case .null, .blob: throw MalformedValue()
            }
        default:
            if let element = Self.builtInArrays[type] {
                return try arrayText(bytes, element: element)
            }
            switch userTypes[type] {
            case .text:
                return String(decoding: bytes.readableBytesView, as: UTF8.self)
            case .array(let element):
                return try arrayText(bytes, element: element)
            case .other, nil:
                return nil
            }
        }
    }

    /// Whether the text of the values of a type is known.
    func knows(_ type: UInt32) -> Bool {
        if let element = Self.builtInArrays[type] { return knowsElement(element) }
        if case .array(let element) = userTypes[type] { return knowsElement(element) }
        return knowsElement(type)
    }

    /// Whether the text of a type that is not an array is known.
    private func knowsElement(_ type: UInt32) -> Bool {
        switch type {
        case 16, 21, 23, 20, 26, 25, 1043, 19, 1042, 114, 142, 3802, 18, 2950, 869, 650, 1186,
             700, 701, 1700, 17, 1082, 1114, 1184:
            return true
        default:
            if case .text = userTypes[type] { return true }
            return false
        }
    }

    // MARK: - "char"

    /// The text of a `"char"`: the byte itself, none for 0, and an octal
    /// escape for the bytes above 127.
    private static func charText(_ bytes: ByteBuffer) throws(MalformedValue) -> String {
        guard bytes.readableBytes == 1, let byte = bytes.getInteger(at: bytes.readerIndex, as: UInt8.self) else {
            throw MalformedValue()
        }
        if byte == 0 { return "" }
        if byte < 128 { return String(UnicodeScalar(byte)) }
        let octal = String(byte, radix: 8)
        return "\\" + String(repeating: "0", count: 3 - octal.count) + octal
    }

    // MARK: - bytea

    /// The text of a `BYTEA` in PostgreSQL's default `hex` output: `\x`,
    /// then two lowercase hexadecimal digits per byte.
    private static func byteaText(_ bytes: ByteBuffer) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = [UInt8(ascii: "\\"), UInt8(ascii: "x")]
        text.reserveCapacity(2 + 2 * bytes.readableBytes)
        for byte in bytes.readableBytesView {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    // MARK: - inet and cidr

    /// The text of an `inet` or a `cidr`: the address, then the length of
    /// the network, which an `inet` leaves out when it is the whole address.
    ///
    /// The binary form: the family (2 for IPv4, 3 for IPv6), the number of
    /// bits of the network, whether the value is a `cidr`, the number of
    /// bytes of the address, then the address.
    private static func networkText(_ bytes: ByteBuffer, isCIDR: Bool) throws(MalformedValue) -> String {
        let start = bytes.readerIndex
        guard bytes.readableBytes >= 4,
              let family = bytes.getInteger(at: start, as: UInt8.self),
              let bits = bytes.getInteger(at: start + 1, as: UInt8.self),
              let count = bytes.getInteger(at: start + 3, as: UInt8.self),
              bytes.readableBytes == 4 + Int(count),
              let address = bytes.getBytes(at: start + 4, length: Int(count))
        else { throw MalformedValue() }
        let text: String
        let maximumBits: Int
        switch (family, count) {
        case (2, 4):
            text = ipv4Text(address[...])
            maximumBits = 32
        case (3, 16):
            text = ipv6Text(address)
            maximumBits = 128
        default:
            throw MalformedValue()
        }
        guard Int(bits) <= maximumBits else { throw MalformedValue() }
        return isCIDR || Int(bits) != maximumBits ? "\(text)/\(bits)" : text
    }

    private static func ipv4Text(_ octets: ArraySlice<UInt8>) -> String {
        octets.map { String($0) }.joined(separator: ".")
    }

    /// An IPv6 address in hexadecimal groups, with `::` for the longest
    /// run of two or more zero groups (the first of the longest), and the
    /// last four bytes in the IPv4 notation for the addresses that embed
    /// an IPv4 address (`::1.2.3.4`, `::ffff:1.2.3.4`).
    private static func ipv6Text(_ octets: [UInt8]) -> String {
        let groups = (0..<8).map { UInt16(octets[2 * $0]) << 8 | UInt16(octets[2 * $0 + 1]) }
        var runStart = -1
        var runLength = 0
        var index = 0
        while index < 8 {
            guard groups[index] == 0 else {
                index += 1
                continue
            }
            var end = index
            while end < 8, groups[end] == 0 { end += 1 }
            if end - index > runLength {
                runStart = index
                runLength = end - index
            }
            index = end
        }
        if runLength < 2 {
            runStart = -1
            runLength = 0
        }
        if runStart == 0, runLength == 6 || (runLength == 5 && groups[5] == 0xFFFF) {
            return (runLength == 5 ? "::ffff:" : "::") + ipv4Text(octets[12..<16])
        }
        var text = ""
        for index in 0..<8 {
            if runStart >= 0, index >= runStart, index < runStart + runLength {
                if index == runStart { text += ":" }
                continue
            }
            if index != 0 { text += ":" }
            text += String(groups[index], radix: 16)
        }
        if runStart >= 0, runStart + runLength == 8 { text += ":" }
        return text
    }

    // MARK: - interval

    /// The text of an `interval` in PostgreSQL's default style
    /// (`1 year 2 mons -3 days +04:05:06.5`): the years, months and days
    /// that are not zero, each with a `+` when it follows a negative one,
    /// then the time when it is not zero, or when all is zero.
    ///
    /// The binary form: the microseconds of the time, the days, the months.
    private static func intervalText(_ bytes: ByteBuffer) throws(MalformedValue) -> String {
        let start = bytes.readerIndex
        guard bytes.readableBytes == 16,
              let time = bytes.getInteger(at: start, as: Int64.self),
              let days = bytes.getInteger(at: start + 8, as: Int32.self),
              let months = bytes.getInteger(at: start + 12, as: Int32.self)
        else { throw MalformedValue() }
        // The infinite intervals of PostgreSQL 17.
        if time == .max, days == .max, months == .max { return "infinity" }
        if time == .min, days == .min, months == .min { return "-infinity" }
        var text = ""
        var isZero = true
        var followsNegative = false
        func append(_ value: Int64, _ unit: String) {
            guard value != 0 else { return }
            if !isZero { text += " " }
            if followsNegative, value > 0 { text += "+" }
            text += "\(value) \(unit)" + (value == 1 ? "" : "s")
            followsNegative = value < 0
            isZero = false
        }
        append(Int64(months / 12), "year")
        append(Int64(months % 12), "mon")
        append(Int64(days), "day")
        if time != 0 || isZero {
            if !isZero { text += " " }
            text += time < 0 ? "-" : followsNegative ? "+" : ""
            let magnitude = time.magnitude
            let hours = magnitude / 3_600_000_000
            let minutes = magnitude / 60_000_000 % 60
            let seconds = magnitude / 1_000_000 % 60
            let fraction = magnitude % 1_000_000
            text += Self.twoDigits(hours) + ":" + Self.twoDigits(minutes) + ":" + Self.twoDigits(seconds)
            if fraction != 0 {
                var digits = String(fraction)
                digits = String(repeating: "0", count: 6 - digits.count) + digits
                while digits.hasSuffix("0") { digits.removeLast() }
                text += "." + digits
            }
        }
        return text
    }

    private static func twoDigits(_ value: UInt64) -> String {
        value < 10 ? "0\(value)" : String(value)
    }

    // MARK: - Arrays

    /// The text of an array: `{1,2,3}`, `{{a,b},{c,NULL}}`, with the
    /// bounds first when one does not start at 1 (`[0:1]={1,2}`), and the
    /// elements quoted when their text needs it.
    ///
    /// The binary form: the number of dimensions, a flag of NULLs, the
    /// element type, the length and first index of each dimension, then
    /// each element, its length first (-1 for NULL).
    private func arrayText(_ bytes: ByteBuffer, element: UInt32) throws(MalformedValue) -> String? {
        var bytes = bytes
        guard let dimensionCount = bytes.readInteger(as: Int32.self),
              bytes.readInteger(as: Int32.self) != nil,
              let elementType = bytes.readInteger(as: UInt32.self),
              (0...6).contains(dimensionCount)
        else { throw MalformedValue() }
        if dimensionCount == 0 { return "{}" }
        // An array's element type is its declared one; another type is a
        // type that Trellis would read wrong.
        guard elementType == element, knowsElement(elementType) else { return nil }
        var lengths: [Int] = []
        var bounds = ""
        var startsAtOne = true
        var count = 1
        for _ in 0..<dimensionCount {
            guard let length = bytes.readInteger(as: Int32.self), let lowerBound = bytes.readInteger(as: Int32.self),
                  length >= 0
            else { throw MalformedValue() }
            lengths.append(Int(length))
            // Each element takes at least the 4 bytes of its length.
            let product = count.multipliedReportingOverflow(by: Int(length))
            guard !product.overflow, product.partialValue <= bytes.readableBytes / 4 else { throw MalformedValue() }
            count = product.partialValue
            bounds += "[\(lowerBound):\(Int64(lowerBound) + Int64(length) - 1)]"
            startsAtOne = startsAtOne && lowerBound == 1
        }
        var text = ""
        try appendElements(of: lengths[...], from: &bytes, type: elementType, to: &text)
        guard bytes.readableBytes == 0 else { throw MalformedValue() }
        return startsAtOne ? text : bounds + "=" + text
    }

    private func appendElements(
        of lengths: ArraySlice<Int>, from bytes: inout ByteBuffer, type: UInt32, to text: inout String
    ) throws(MalformedValue) {
        guard let length = lengths.first else { return }
        text += "{"
        for index in 0..<length {
            if index > 0 { text += "," }
            if lengths.count > 1 {
                try appendElements(of: lengths.dropFirst(), from: &bytes, type: type, to: &text)
                continue
            }
            guard let size = bytes.readInteger(as: Int32.self) else { throw MalformedValue() }
            if size == -1 {
                text += "NULL"
                continue
            }
            guard size >= 0, let element = bytes.readSlice(length: Int(size)),
                  let elementText = try self.text(of: element, type: type)
            else { throw MalformedValue() }
            text += Self.quoted(elementText)
        }
        text += "}"
    }

    /// An element's text as an array writes it: in double quotes, with
    /// `"` and `\` escaped, when it is empty, is `NULL` in any case, or
    /// holds braces, quotes, backslashes, commas or white space.
    private static func quoted(_ text: String) -> String {
        let needsQuotes = text.isEmpty || text.lowercased() == "null" || text.utf8.contains { byte in
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: ","),
                 UInt8(ascii: " "), 9, 10, 11, 12, 13:
                return true
            default:
                return false
            }
        }
        guard needsQuotes else { return text }
        var quoted = "\""
        for character in text.unicodeScalars {
            if character == "\"" || character == "\\" { quoted += "\\" }
            quoted.unicodeScalars.append(character)
        }
        return quoted + "\""
    }
}
