import NIOCore
import Trellis

/// The Trellis value of a binary `NUMERIC` cell: an integer when the
/// number is integral and fits 64 bits, a double when the double is the
/// same number, else the number's exact text, which a `Decimal` reads in
/// full and a `Double` reads to its nearest value. `NaN` and the
/// infinities are doubles.
///
/// A `NUMERIC` of more significant digits than a double keeps (amounts of
/// money, counters beyond 2^63) would come back changed from a round trip
/// through a double: `12345678901234567.89` as `12345678901234568`.
///
/// The binary form is four 16-bit integers, the count of digits, the
/// weight of the first (in powers of 10,000), the sign and the count of
/// decimal places, then the digits in base 10,000.
enum PostgresNumericValue {
    static func value(of bytes: ByteBuffer) -> DatabaseValue? {
        switch Number(bytes) {
        case nil:
            return nil
        case .special(let value):
            return value.databaseValue
        case .finite(let isNegative, let integerPart, let fraction):
            if fraction.allSatisfy({ $0 == "0" }), let integer = Int64((isNegative ? "-" : "") + integerPart) {
                return integer.databaseValue
            }
            let text = (isNegative ? "-" : "") + integerPart + (fraction.isEmpty ? "" : "." + fraction)
            // A number of at most 15 significant digits (DBL_DIG) in the
            // range of normal doubles comes back from its double digit for
            // digit.
            let significant = (integerPart + fraction).drop(while: { $0 == "0" }).reversed().drop(while: { $0 == "0" })
            if significant.count <= 15, let double = Double(text), double.isNormal {
                return double.databaseValue
            }
            return text.databaseValue
        }
    }

    /// The exact text of a binary `NUMERIC`, as PostgreSQL writes it: the
    /// digits of its scale (`1.50`), `NaN`, `Infinity`, `-Infinity`. It
    /// is the text of an element of a `NUMERIC` array, where a double
    /// would lose the scale.
    static func text(of bytes: ByteBuffer) -> String? {
        switch Number(bytes) {
        case nil:
            return nil
        case .special(let value):
            return value.isNaN ? "NaN" : value > 0 ? "Infinity" : "-Infinity"
        case .finite(let isNegative, let integerPart, let fraction):
            return (isNegative ? "-" : "") + integerPart + (fraction.isEmpty ? "" : "." + fraction)
        }
    }

    /// A number read from the binary form.
    private enum Number {
        /// `NaN` or an infinity.
        case special(Double)
        /// The digits of the integer part, and those of the fraction, as
        /// many as the scale.
        case finite(isNegative: Bool, integerPart: String, fraction: String)

        init?(_ bytes: ByteBuffer) {
            var buffer = bytes
            guard let count = buffer.readInteger(as: Int16.self),
                  let weight = buffer.readInteger(as: Int16.self),
                  let sign = buffer.readInteger(as: UInt16.self),
                  let scale = buffer.readInteger(as: Int16.self),
                  count >= 0, scale >= 0, buffer.readableBytes == Int(count) * 2
            else { return nil }
            switch sign {
            case 0xC000:
                self = .special(.nan)
                return
            case 0xD000:
                self = .special(.infinity)
                return
            case 0xF000:
                self = .special(-.infinity)
                return
            case 0x0000, 0x4000:
                break
            default:
                return nil
            }
            var digits: [Int] = []
            digits.reserveCapacity(Int(count))
            for _ in 0..<count {
                guard let digit = buffer.readInteger(as: Int16.self), (0..<10_000).contains(digit) else { return nil }
                digits.append(Int(digit))
            }
            func group(at index: Int) -> Int { index >= 0 && index < digits.count ? digits[index] : 0 }
            func padded(_ group: Int) -> String {
                let text = String(group)
                return String(repeating: "0", count: 4 - text.count) + text
            }

            // The group of index i weighs 10,000^(weight - i).
            var integerPart = weight >= 0 ? String(group(at: 0)) : "0"
            if weight > 0 {
                for index in 1...Int(weight) { integerPart += padded(group(at: index)) }
            }
            var fraction = ""
            var index = Int(weight) + 1
            while fraction.count < Int(scale) {
                fraction += padded(group(at: index))
                index += 1
            }
            self = .finite(isNegative: sign == 0x4000, integerPart: integerPart, fraction: String(fraction.prefix(Int(scale))))
        }
    }
}
