/// The keyed container that a box's decoder or encoder made for the first
/// key type an entity asked for, kept for the next entities of the box:
/// making one looks up the metadata of two generic types for each object.
///
/// The container is kept in a class of its own, `DecodingBox<Key>` or
/// `EncodingBox<Key>`, whose type the kept identifier of `Key` and the kind
/// of the container prove. The container does not retain its coder, which
/// keeps this value: there is no reference cycle to break.
struct KeptContainer {
    private var kept: (keyType: ObjectIdentifier, isDecoding: Bool, box: AnyObject)?

    /// The kept decoding container of `Key`, or the one `make` returns,
    /// kept when no container is.
    @inline(__always)
    mutating func container<Key: CodingKey>(for key: Key.Type, make: () -> KeyedDecodingContainer<Key>) -> KeyedDecodingContainer<Key> {
        let identifier = ObjectIdentifier(Key.self)
        if let kept, kept.keyType == identifier, kept.isDecoding {
            // Only a `DecodingBox<Key>` is kept with these.
            return unsafeDowncast(kept.box, to: DecodingBox<Key>.self).container
        }
        let container = make()
        if kept == nil { kept = (identifier, true, DecodingBox(container)) }
        return container
    }

    /// The kept encoding container of `Key`, or the one `make` returns,
    /// kept when no container is.
    @inline(__always)
    mutating func container<Key: CodingKey>(for key: Key.Type, make: () -> KeyedEncodingContainer<Key>) -> KeyedEncodingContainer<Key> {
        let identifier = ObjectIdentifier(Key.self)
        if let kept, kept.keyType == identifier, !kept.isDecoding {
            // Only an `EncodingBox<Key>` is kept with these.
            return unsafeDowncast(kept.box, to: EncodingBox<Key>.self).container
        }
        let container = make()
        if kept == nil { kept = (identifier, false, EncodingBox(container)) }
        return container
    }

    private final class DecodingBox<Key: CodingKey> {
        let container: KeyedDecodingContainer<Key>
        init(_ container: KeyedDecodingContainer<Key>) { self.container = container }
    }

    private final class EncodingBox<Key: CodingKey> {
        let container: KeyedEncodingContainer<Key>
        init(_ container: KeyedEncodingContainer<Key>) { self.container = container }
    }
}
