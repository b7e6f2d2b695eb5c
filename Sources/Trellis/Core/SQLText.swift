import Foundation

/// SQL text compared and hashed by its UTF-8 bytes, as SQLite reads it.
///
/// Swift's `==` on strings compares Unicode canonical equivalence: "café"
/// with a precomposed "é" equals "café" with "e" and a combining accent.
/// SQLite compares bytes, so two such statements are different statements
/// (they select different rows, or even different tables): caches keyed by
/// SQL must tell them apart.
struct SQLText: Hashable {
    let sql: String

    init(_ sql: String) {
        self.sql = sql
    }

    static func == (lhs: SQLText, rhs: SQLText) -> Bool {
        lhs.sql.hasSameUTF8(as: rhs.sql)
    }

    func hash(into hasher: inout Hasher) {
        let hashed: Void? = sql.utf8.withContiguousStorageIfAvailable { bytes in
            hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
        }
        if hashed == nil {
            for byte in sql.utf8 { hasher.combine(byte) }
        }
    }
}

extension String {
    /// Whether the strings have the same UTF-8 bytes (see ``SQLText``).
    func hasSameUTF8(as other: String) -> Bool {
        let compared: Bool?? = utf8.withContiguousStorageIfAvailable { lhs in
            other.utf8.withContiguousStorageIfAvailable { rhs in
                guard lhs.count == rhs.count else { return false }
                guard let lhsBytes = lhs.baseAddress, let rhsBytes = rhs.baseAddress else { return true }
                return memcmp(lhsBytes, rhsBytes, lhs.count) == 0
            }
        }
        if case .some(.some(let result)) = compared { return result }
        return utf8.elementsEqual(other.utf8)
    }
}
