import TrellisObjects

/// The least time any Codable decoding or encoding can take: raw SQLite's
/// work for a workload, plus the `init(from:)` or `encode(to:)` of the
/// Trellis backend's types (synthesized by the compiler), fed by a decoder
/// or an encoder that does no work at all.
///
/// A library that reads Codable records pays at least both: it steps the
/// statement and reads the columns as raw SQLite does, and the standard
/// library's keyed containers call its decoder once per property, through
/// type-erasing boxes that no library can skip. Writes are the same. The
/// ratio of this backend to raw SQLite is the floor of the Codable
/// workloads (W1c, W2c, W3, W4, O1, O2, O3): a target below it can not be
/// met through `Codable`.
struct CodableFloorBackend: Backend {
    let name = "Codable floor"
    let standsInForTwins = false

    func task(_ workload: String, sizes: Sizes, path: String) throws -> Task? {
        let decodeOnly: () throws -> Int
        switch workload {
        case "W1c":
            decodeOnly = {
                let encoder = FloorEncoder()
                for i in 1...sizes.inserts {
                    try TrellisBackend.InsertedItem(id: Int64(i), c1: i &+ 1, c2: i &+ 2, c3: i &+ 3, c4: i &+ 4, c5: i &+ 5,
                                                    c6: i &+ 6, c7: i &+ 7, c8: i &+ 8, c9: i &+ 9).encode(to: encoder)
                }
                return encoder.count
            }
        case "O1":
            decodeOnly = {
                // The objects are made as the Trellis backend makes them.
                let encoder = FloorEncoder()
                let books = (1...sizes.objects).map { i -> TrellisObjectsBackend.ObjBook in
                    let book = TrellisObjectsBackend.ObjBook()
                    book.title = "Book \(i)"
                    book.author.targetId = Id(i % 10 + 1)
                    return book
                }
                for book in books { try book.encode(to: encoder) }
                return encoder.count
            }
        case "W2c":
            decodeOnly = {
                let decoder = FloorDecoder()
                var items: [TrellisBackend.CodableItem] = []
                for _ in 0..<sizes.rows { items.append(try TrellisBackend.CodableItem(from: decoder)) }
                return items.reduce(0) { $0 &+ $1.c9 }
            }
        case "W3":
            decodeOnly = {
                let decoder = FloorDecoder()
                var infos: [TrellisBackend.BookInfo] = []
                for _ in 0..<sizes.books { infos.append(try TrellisBackend.BookInfo(from: decoder)) }
                return infos.reduce(0) { $0 &+ $1.book.year &+ $1.author.name.count }
            }
        case "W4":
            decodeOnly = {
                let decoder = FloorDecoder(elementCount: Fixture.bookCount(sizes) / max(sizes.authors, 1))
                var infos: [TrellisBackend.AuthorInfo] = []
                for _ in 0..<sizes.authors { infos.append(try TrellisBackend.AuthorInfo(from: decoder)) }
                return infos.reduce(0) { $0 &+ $1.books.count }
            }
        case "O2":
            decodeOnly = {
                let decoder = FloorDecoder()
                var books: [TrellisObjectsBackend.ObjBook] = []
                for _ in 0..<sizes.objects { books.append(try TrellisObjectsBackend.ObjBook(from: decoder)) }
                return books.reduce(0) { $0 &+ Int($1.author.targetId ?? 0) }
            }
        case "O3":
            decodeOnly = {
                let decoder = FloorDecoder()
                var checksum = 0
                for _ in 0..<sizes.objects {
                    let book = try TrellisObjectsBackend.ObjBook(from: decoder)
                    checksum &+= Int(book.author.targetId ?? 0)
                }
                return checksum
            }
        default:
            return nil
        }
        guard let raw = try RawBackend().task(workload, sizes: sizes, path: path) else { return nil }
        return Task(prepare: raw.prepare) {
            let checksum = try raw.run()
            // Keeps the decoding or encoding from being optimized away.
            if try decodeOnly() == Int.min { print("") }
            return checksum
        }
    }
}

/// The keyed containers of a floor coder, made once per key type: making
/// one for each record would add the runtime's lookup of its generic
/// metadata, which a library's coder can avoid the same way.
private struct KeptContainers {
    private var containers: [(key: ObjectIdentifier, container: AnyObject)] = []

    mutating func container<Key: CodingKey, Container>(for key: Key.Type, make: () -> Container) -> Container {
        let identifier = ObjectIdentifier(Key.self)
        for kept in containers where kept.key == identifier {
            // Only a container of `Key` is kept with `Key`.
            return unsafeDowncast(kept.container, to: Kept<Container>.self).value
        }
        let container = make()
        containers.append((identifier, Kept(container)))
        return container
    }

    private final class Kept<Value> {
        let value: Value
        init(_ value: Value) { self.value = value }
    }
}

/// A decoder that does no work: each property gets a constant, each keyed
/// container is made once per key type, each array has `elementCount`
/// elements. Only the work of the standard library and of the
/// synthesized `init(from:)` remains.
private final class FloorDecoder: Decoder {
    let elementCount: Int
    private var containers = KeptContainers()

    init(elementCount: Int = 0) {
        self.elementCount = elementCount
    }

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        containers.container(for: Key.self) { KeyedDecodingContainer(FloorKeyedContainer<Key>(decoder: Unmanaged.passUnretained(self))) }
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        FloorUnkeyedContainer(decoder: Unmanaged.passUnretained(self), count: elementCount)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw BenchmarkError("the floor decoder decodes records only")
    }
}

private struct FloorKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: Unmanaged<FloorDecoder>
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool { true }
    func decodeNil(forKey key: Key) throws -> Bool { false }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { 1 }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { 1 }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { 1 }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { "Book 1" }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        // A relation is built from its id, as the object store builds it.
        if T.self == ToOne<TrellisObjectsBackend.ObjAuthor>.self {
            return unsafeBitCast(ToOne<TrellisObjectsBackend.ObjAuthor>(targetId: 1), to: T.self)
        }
        return try decoder._withUnsafeGuaranteedRef { try T(from: $0) }
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder._withUnsafeGuaranteedRef { try $0.container(keyedBy: NestedKey.self) }
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder._withUnsafeGuaranteedRef { try $0.unkeyedContainer() }
    }

    func superDecoder() throws -> any Decoder { decoder.takeUnretainedValue() }
    func superDecoder(forKey key: Key) throws -> any Decoder { decoder.takeUnretainedValue() }
}

private struct FloorUnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: Unmanaged<FloorDecoder>
    var count: Int?
    var currentIndex = 0
    var codingPath: [any CodingKey] { [] }
    var isAtEnd: Bool { currentIndex >= count ?? 0 }

    init(decoder: Unmanaged<FloorDecoder>, count: Int) {
        self.decoder = decoder
        self.count = count
    }

    mutating func decodeNil() throws -> Bool { false }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        currentIndex += 1
        return try decoder._withUnsafeGuaranteedRef { try T(from: $0) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder._withUnsafeGuaranteedRef { try $0.container(keyedBy: NestedKey.self) }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try decoder._withUnsafeGuaranteedRef { try $0.unkeyedContainer() }
    }

    mutating func superDecoder() throws -> any Decoder { decoder.takeUnretainedValue() }
}

/// An encoder that does no work: each property is dropped, each keyed
/// container is made once per key type.
private final class FloorEncoder: Encoder {
    /// The number of properties encoded.
    var count = 0
    private var containers = KeptContainers()

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        containers.container(for: Key.self) { KeyedEncodingContainer(FloorKeyedEncodingContainer<Key>(encoder: Unmanaged.passUnretained(self))) }
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        FloorUnkeyedEncodingContainer(encoder: Unmanaged.passUnretained(self))
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        FloorSingleValueEncodingContainer(encoder: Unmanaged.passUnretained(self))
    }
}

private struct FloorKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: Unmanaged<FloorEncoder>
    var codingPath: [any CodingKey] { [] }

    func count() { encoder._withUnsafeGuaranteedRef { $0.count &+= 1 } }
    mutating func encodeNil(forKey key: Key) throws { count() }
    mutating func encode(_ value: Int, forKey key: Key) throws { count() }
    mutating func encode(_ value: Int64, forKey key: Key) throws { count() }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { count() }
    mutating func encode(_ value: String, forKey key: Key) throws { count() }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        // A relation is stored as the id of its target, as the object
        // store stores it.
        if T.self == ToOne<TrellisObjectsBackend.ObjAuthor>.self {
            let targetId = withUnsafePointer(to: value) {
                $0.withMemoryRebound(to: ToOne<TrellisObjectsBackend.ObjAuthor>.self, capacity: 1) { $0.pointee.targetId }
            }
            if targetId != nil { count() }
            return
        }
        try encoder._withUnsafeGuaranteedRef { try value.encode(to: $0) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        encoder._withUnsafeGuaranteedRef { $0.container(keyedBy: NestedKey.self) }
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        encoder._withUnsafeGuaranteedRef { $0.unkeyedContainer() }
    }

    mutating func superEncoder() -> any Encoder { encoder.takeUnretainedValue() }
    mutating func superEncoder(forKey key: Key) -> any Encoder { encoder.takeUnretainedValue() }
}

private struct FloorUnkeyedEncodingContainer: UnkeyedEncodingContainer {
    let encoder: Unmanaged<FloorEncoder>
    var codingPath: [any CodingKey] { [] }
    var count = 0

    mutating func encodeNil() throws { count += 1 }
    mutating func encode<T: Encodable>(_ value: T) throws {
        count += 1
        try encoder._withUnsafeGuaranteedRef { try value.encode(to: $0) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        encoder._withUnsafeGuaranteedRef { $0.container(keyedBy: NestedKey.self) }
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        encoder._withUnsafeGuaranteedRef { $0.unkeyedContainer() }
    }

    mutating func superEncoder() -> any Encoder { encoder.takeUnretainedValue() }
}

private struct FloorSingleValueEncodingContainer: SingleValueEncodingContainer {
    let encoder: Unmanaged<FloorEncoder>
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil() throws { encoder._withUnsafeGuaranteedRef { $0.count &+= 1 } }
    mutating func encode<T: Encodable>(_ value: T) throws { encoder._withUnsafeGuaranteedRef { $0.count &+= 1 } }
}
