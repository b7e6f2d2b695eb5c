/// Makes a value of a `Decodable` type out of nothing: the stand-in that a
/// non-throwing row subscript returns after it recorded a decoding failure
/// (see `DatabaseValueConvertible._decodingPlaceholder()`). The fetch that
/// reads the row throws the failure, so the value never reaches results.
///
/// Every question gets the smallest answer: no key is present, values are
/// NULL, numbers are zero, strings and arrays are empty. A type whose
/// `init(from:)` refuses these answers, or that nests itself deeper than
/// `maximumDepth`, gets no stand-in.
struct StandInDecoder: Decoder {
    static let maximumDepth = 16

    let depth: Int
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// A value of `type`, or nil.
    static func value<T: Decodable>(of type: T.Type) -> T? {
        try? StandInDecoder(depth: 0).standIn(T.self)
    }

    func standIn<T: Decodable>(_ type: T.Type) throws -> T {
        if let convertible = T.self as? any DatabaseValueConvertible.Type,
           let value = Self.basicPlaceholder(of: convertible) as? T
        {
            return value
        }
        guard depth < Self.maximumDepth else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "no stand-in for \(T.self)"))
        }
        return try T(from: StandInDecoder(depth: depth + 1))
    }

    private static func basicPlaceholder<V: DatabaseValueConvertible>(of type: V.Type) -> V? {
        V._basicPlaceholder()
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(KeyedContainer<Key>(decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        UnkeyedContainer(decoder: self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueContainer(decoder: self)
    }

    private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let decoder: StandInDecoder
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { [] }
        func contains(_ key: Key) -> Bool { false }
        func decodeNil(forKey key: Key) throws -> Bool { true }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try decoder.standIn(T.self) }
        func nestedContainer<NestedKey: CodingKey>(
            keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey>
        {
            try decoder.container(keyedBy: NestedKey.self)
        }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { UnkeyedContainer(decoder: decoder) }
        func superDecoder() throws -> any Decoder { decoder }
        func superDecoder(forKey key: Key) throws -> any Decoder { decoder }
    }

    private struct UnkeyedContainer: UnkeyedDecodingContainer {
        let decoder: StandInDecoder
        var codingPath: [any CodingKey] { [] }
        var count: Int? { 0 }
        var isAtEnd: Bool { true }
        var currentIndex: Int { 0 }
        mutating func decodeNil() throws -> Bool { true }
        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.standIn(T.self) }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            try decoder.container(keyedBy: NestedKey.self)
        }
        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { self }
        mutating func superDecoder() throws -> any Decoder { decoder }
    }

    private struct SingleValueContainer: SingleValueDecodingContainer {
        let decoder: StandInDecoder
        var codingPath: [any CodingKey] { [] }
        func decodeNil() -> Bool { true }
        func decode(_ type: Bool.Type) throws -> Bool { false }
        func decode(_ type: String.Type) throws -> String { "" }
        func decode(_ type: Double.Type) throws -> Double { 0 }
        func decode(_ type: Float.Type) throws -> Float { 0 }
        func decode(_ type: Int.Type) throws -> Int { 0 }
        func decode(_ type: Int8.Type) throws -> Int8 { 0 }
        func decode(_ type: Int16.Type) throws -> Int16 { 0 }
        func decode(_ type: Int32.Type) throws -> Int32 { 0 }
        func decode(_ type: Int64.Type) throws -> Int64 { 0 }
        func decode(_ type: UInt.Type) throws -> UInt { 0 }
        func decode(_ type: UInt8.Type) throws -> UInt8 { 0 }
        func decode(_ type: UInt16.Type) throws -> UInt16 { 0 }
        func decode(_ type: UInt32.Type) throws -> UInt32 { 0 }
        func decode(_ type: UInt64.Type) throws -> UInt64 { 0 }
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.standIn(T.self) }
    }
}
