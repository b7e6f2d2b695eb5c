extension String {
    /// Whether the strings are equal, ignoring ASCII case, without
    /// allocating: SQLite compares identifiers this way.
    @inlinable
    func isEqualIgnoringASCIICase(_ other: String) -> Bool {
        // Most different names differ in length: no need to read them, nor
        // to call a function.
        utf8.count == other.utf8.count && hasEqualBytesIgnoringASCIICase(other)
    }

    /// Whether the strings, of the same length, are equal, ignoring ASCII
    /// case.
    @usableFromInline
    func hasEqualBytesIgnoringASCIICase(_ other: String) -> Bool {
        if self == other { return true }
        var lhs = utf8.makeIterator()
        var rhs = other.utf8.makeIterator()
        while true {
            switch (lhs.next(), rhs.next()) {
            case (nil, nil):
                return true
            case let (l?, r?):
                if l == r { continue }
                let lowerL = (l >= 65 && l <= 90) ? l + 32 : l
                let lowerR = (r >= 65 && r <= 90) ? r + 32 : r
                if lowerL != lowerR { return false }
            default:
                return false
            }
        }
    }
}

extension String {
    /// Whether the two strings are the same value in memory: the same
    /// small string, or the same storage. Equal strings may fail this test
    /// (then `==` tells), different ones never pass it. It costs two
    /// comparisons of integers, where `==` is a call.
    @inlinable @inline(__always)
    func hasIdenticalRepresentation(_ other: String) -> Bool {
        guard MemoryLayout<String>.size == 2 * MemoryLayout<UInt64>.size else { return false }
        return withUnsafeBytes(of: self) { lhs in
            withUnsafeBytes(of: other) { rhs in
                lhs.load(as: UInt64.self) == rhs.load(as: UInt64.self)
                    && lhs.load(fromByteOffset: 8, as: UInt64.self) == rhs.load(fromByteOffset: 8, as: UInt64.self)
            }
        }
    }
}
