import Foundation

/// The text that PostgreSQL writes for a `REAL` or a `DOUBLE PRECISION`
/// (with its default `extra_float_digits`): the shortest decimal that
/// reads back as the same value of its type, written in fixed notation
/// when its exponent is from -4 to the digits that the type keeps (6 for
/// `REAL`, 15 for `DOUBLE PRECISION`), else in exponent notation with at
/// least two digits of exponent (`1e+16`, `1.5e-05`); `NaN`, `Infinity`
/// and `-Infinity`.
///
/// Swift's description of a float has the same shortest digits, in
/// another layout (`2.0`, `inf`), but in one case: a decimal halfway
/// between the value and its neighbour reads back as the value when the
/// value's significand is even, and Swift takes it, where PostgreSQL
/// wants a decimal strictly closer to the value: `REAL` 96379536 is
/// `9.637954e+07` in Swift, `9.6379536e+07` in PostgreSQL.
enum PostgresFloatText {
    static func text(_ value: Double) -> String {
        text(value, fixedExponents: -4..<15, maximumDigits: 17)
    }

    static func text(_ value: Float) -> String {
        text(value, fixedExponents: -4..<6, maximumDigits: 9)
    }

    /// Significant digits, and the count of them before the decimal
    /// point: `digits` × 10^(`point` - count of digits).
    private struct Digits {
        var digits: [UInt8]
        var point: Int

        /// The digits of a description of a positive number (`1.5`,
        /// `1e-05`, `9.6379536e+07`), without leading or trailing zeros.
        init(_ description: String) {
            var mantissa = Substring(description)
            var exponent = 0
            if let e = description.firstIndex(where: { $0 == "e" || $0 == "E" }) {
                mantissa = description[..<e]
                exponent = Int(description[description.index(after: e)...]) ?? 0
            }
            let integerDigits = mantissa.prefix { $0 != "." }
            digits = Array((integerDigits + mantissa.dropFirst(integerDigits.count + 1)).utf8)
            point = integerDigits.count + exponent
            while digits.first == UInt8(ascii: "0") {
                digits.removeFirst()
                point -= 1
            }
            while digits.last == UInt8(ascii: "0") { digits.removeLast() }
        }

        /// Whether the decimal is `odd` × 2^`exponent`, for an odd `odd`.
        func equals(odd: UInt64, timesTwoToThe exponent: Int) -> Bool {
            var integer: UInt64 = 0
            for digit in digits {
                integer = integer * 10 + UInt64(digit - UInt8(ascii: "0"))
            }
            guard integer != 0 else { return false }
            // digits × 2^p × 5^p, with p = point - count, against
            // odd × 2^exponent: the powers of two and the odd parts match.
            let powerOfTen = point - digits.count
            let twos = integer.trailingZeroBitCount
            let oddDigits = integer >> twos
            var fives: UInt64 = 1
            for _ in 0..<powerOfTen.magnitude {
                let product = fives.multipliedReportingOverflow(by: 5)
                if product.overflow { return false }
                fives = product.partialValue
            }
            if powerOfTen >= 0 {
                let product = oddDigits.multipliedReportingOverflow(by: fives)
                return !product.overflow && product.partialValue == odd && twos + powerOfTen == exponent
            }
            let product = odd.multipliedReportingOverflow(by: fives)
            return !product.overflow && product.partialValue == oddDigits && twos == exponent - powerOfTen
        }
    }

    private static func text<F: BinaryFloatingPoint & CustomStringConvertible & LosslessStringConvertible>(
        _ value: F, fixedExponents: Range<Int>, maximumDigits: Int) -> String
    {
        if value.isNaN { return "NaN" }
        let sign = value.sign == .minus ? "-" : ""
        if value.isInfinite { return sign + "Infinity" }
        if value.isZero { return sign + "0" }
        let magnitude = value.magnitude
        var decimal = Digits(magnitude.description)
        if isHalfway(decimal, around: magnitude) {
            // The decimal of one more digit, correctly rounded, is the
            // closest one of its length: the first that is strictly
            // closer to the value than to its neighbours.
            for count in (decimal.digits.count + 1)...maximumDigits {
                let text = String(format: "%.\(count - 1)e", Double(magnitude))
                let candidate = Digits(text)
                if F(text) == magnitude, !isHalfway(candidate, around: magnitude) {
                    decimal = candidate
                    break
                }
            }
        }
        let digits = String(decoding: decimal.digits, as: UTF8.self)
        let point = decimal.point
        let scientificExponent = point - 1
        if fixedExponents.contains(scientificExponent) {
            if point <= 0 {
                return sign + "0." + String(repeating: "0", count: -point) + digits
            }
            if point >= digits.count {
                return sign + digits + String(repeating: "0", count: point - digits.count)
            }
            return sign + String(digits.prefix(point)) + "." + String(digits.dropFirst(point))
        }
        let exponent = scientificExponent.magnitude
        return sign + String(digits.prefix(1)) + (digits.count > 1 ? "." + String(digits.dropFirst()) : "")
            + (scientificExponent < 0 ? "e-" : "e+") + (exponent < 10 ? "0" : "") + String(exponent)
    }

    /// Whether a decimal is halfway between a positive finite value and
    /// one of its neighbours.
    private static func isHalfway<F: BinaryFloatingPoint>(_ decimal: Digits, around value: F) -> Bool {
        let significandBits = F.significandBitCount
        let bias = (1 << (F.exponentBitCount - 1)) - 1
        let biasedExponent = Int(value.exponentBitPattern)
        var significand = UInt64(value.significandBitPattern)
        let exponent: Int
        if biasedExponent == 0 {
            exponent = 1 - bias - significandBits
        } else {
            significand |= 1 << significandBits
            exponent = biasedExponent - bias - significandBits
        }
        // value = significand × 2^exponent. Below a power of two, the
        // neighbour is closer: half the spacing.
        let isPowerOfTwo = significand == 1 << significandBits && biasedExponent > 1
        let below = isPowerOfTwo ? (4 * significand - 1, exponent - 2) : (2 * significand - 1, exponent - 1)
        return decimal.equals(odd: 2 * significand + 1, timesTwoToThe: exponent - 1)
            || decimal.equals(odd: below.0, timesTwoToThe: below.1)
    }
}
