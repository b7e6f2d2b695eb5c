import Foundation

/// Which prefetched associations a fetch of a record type decodes as
/// records as their rows come, rather than copying the rows for the
/// records' `init(row:)` to decode later.
///
/// A key gets a decoder when the record type declares the array type it
/// reads there (the `@DatabaseRecord` macro, see
/// `_PrefetchedRecordsDecoding`), or when an earlier fetch of the type
/// read it as an array of records (`row.decode(forKey:)`, a Decodable
/// `[Book]` property): the fetch learns it (see
/// `Database.withPrefetches(_:of:recordType:decode:)`).
///
/// The decoded records are what the records' `init(row:)` reads when it
/// reads what was declared or learned. When it reads the rows instead, or
/// another type, or when a record fails to decode (any error but a
/// `DatabaseError`), the fetch prefetches the rows again and decodes them
/// as rows, which gives the result or the error a fetch without decoders
/// gives; the key then gets no decoder any more for the record type,
/// unless the second attempt failed as well.
@usableFromInline
final class PrefetchedRecordsPlan {
    private let recordType: any FetchableRecord.Type
    private let declared: (any _PrefetchedRecordsDecoding.Type)?

    /// The keys given a decoder: the prefetch decodes their records, unless
    /// their rows have prefetched rows in turn (it copies those rows).
    private(set) var keysWithDecoders: [String] = []

    @usableFromInline
    init(recordType: any FetchableRecord.Type) {
        self.recordType = recordType
        declared = recordType as? any _PrefetchedRecordsDecoding.Type
    }

    /// The decoder of the records of the prefetched association `key`, if
    /// the record type reads them as an array of records.
    func decoder(forKey key: String) -> _PrefetchedRecordsDecoder? {
        let decoder: _PrefetchedRecordsDecoder?
        switch PrefetchedRecordsRegistry.shared.entry(ObjectIdentifier(recordType), key: key) {
        case .disabled:
            return nil
        case .learned(let learned):
            decoder = learned
        case nil:
            decoder = declared?._prefetchedRecordsDecoder(forKey: key)
        }
        if decoder != nil { keysWithDecoders.append(key) }
        return decoder
    }

    /// Gives no decoder any more to the keys given one in this fetch: its
    /// records read them otherwise.
    @usableFromInline
    func disableKeysWithDecoders() {
        for key in keysWithDecoders {
            PrefetchedRecordsRegistry.shared.disable(ObjectIdentifier(recordType), key: key)
        }
    }
}

/// The arrays of records that the `init(row:)` of a record type read from
/// prefetched rows during one fetch that copied the rows: the next fetches
/// of the type decode them as the rows come.
@usableFromInline
final class PrefetchedRecordsLearning {
    /// The record type of the fetch.
    let recordType: any FetchableRecord.Type
    private(set) var decoders: [String: _PrefetchedRecordsDecoder] = [:]

    @usableFromInline
    init(recordType: any FetchableRecord.Type) {
        self.recordType = recordType
    }

    /// The learning of the fetch that reads `row`, when `row` is one of
    /// its records' rows and nothing is learned yet of `key`.
    @usableFromInline
    static func current(for row: Row, key: String) -> PrefetchedRecordsLearning? {
        // A scope's or a prefetched row's associations are not those that
        // the fetch prefetches for its rows.
        guard row.root === row, let learning = CurrentAccess.database?.prefetchedRecordsLearning,
              learning.decoders[key] == nil
        else { return nil }
        return learning
    }

    /// Notes that the records read the prefetched rows of `key` with
    /// `decoder`'s record type.
    @usableFromInline
    func learn(_ decoder: _PrefetchedRecordsDecoder, forKey key: String) {
        decoders[key] = decoder
    }

    /// Keeps what the fetch learned, for the next fetches of its record
    /// type.
    @usableFromInline
    func commit() {
        for (key, decoder) in decoders {
            PrefetchedRecordsRegistry.shared.learn(decoder, for: ObjectIdentifier(recordType), key: key)
        }
    }
}

/// What fetches learned of the prefetched records of record types, shared
/// by all connections.
final class PrefetchedRecordsRegistry: @unchecked Sendable {
    static let shared = PrefetchedRecordsRegistry()

    enum Entry {
        /// The records of the key are decoded by this decoder.
        case learned(_PrefetchedRecordsDecoder)
        /// The records of the type read the key otherwise.
        case disabled
    }

    // Guarded by `lock`: connections fetch concurrently.
    private var entries: [ObjectIdentifier: [String: Entry]] = [:]
    private let lock = NSLock()

    func entry(_ recordType: ObjectIdentifier, key: String) -> Entry? {
        lock.withLock { entries[recordType]?[key] }
    }

    /// Remembers a decoder, unless the key was disabled.
    func learn(_ decoder: _PrefetchedRecordsDecoder, for recordType: ObjectIdentifier, key: String) {
        lock.withLock {
            if entries[recordType]?[key] == nil { entries[recordType, default: [:]][key] = .learned(decoder) }
        }
    }

    func disable(_ recordType: ObjectIdentifier, key: String) {
        lock.withLock { entries[recordType, default: [:]][key] = .disabled }
    }
}
