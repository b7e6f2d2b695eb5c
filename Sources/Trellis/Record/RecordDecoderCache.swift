/// The Codable decoders that a statement reuses for the records of its
/// rows, one per record type (a row may hold several records, such as a
/// book and its author): making a decoder and its keyed container for each
/// row costs more than reading the row.
///
/// A statement keeps its cache in ``Statement/decodingCache``, and uses it
/// on the connection's thread only.
final class RecordDecoderCache {
    /// The most decoders kept: the records of one row are few.
    private static let capacity = 4

    private var decoders: [DatabaseRowDecoder] = []
    /// The decoder used last: most statements decode one record type.
    private var lastDecoder: DatabaseRowDecoder?

    deinit {
        // Each decoder and the container it keeps refer to each other.
        for decoder in decoders { decoder.invalidate() }
    }

    /// The free decoder of `recordType`, pointed at `row`, or a new one.
    func decoder(row: Row, recordType: any FetchableRecord.Type) -> DatabaseRowDecoder {
        let identifier = ObjectIdentifier(recordType)
        if let lastDecoder, lastDecoder.recordTypeIdentifier == identifier, !lastDecoder.isInUse {
            lastDecoder.begin(row)
            return lastDecoder
        }
        for decoder in decoders where decoder.recordTypeIdentifier == identifier {
            if decoder.isInUse { break }
            lastDecoder = decoder
            decoder.begin(row)
            return decoder
        }
        let kept = decoders.count < Self.capacity
        let decoder = DatabaseRowDecoder(
            row: row, recordType: recordType, parentPath: [], key: nil, reusesContainer: kept)
        if kept {
            decoders.append(decoder)
            lastDecoder = decoder
        }
        decoder.begin(row)
        return decoder
    }
}
