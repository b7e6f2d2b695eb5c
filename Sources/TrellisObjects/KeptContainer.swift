/// The keyed container that a box's decoder or encoder made for the first
/// key type an entity asked for, kept for the next entities of the box:
/// making one looks up the metadata of two generic types for each object.
///
/// The container does not retain its coder, which keeps this value: there
/// is no reference cycle to break.
struct KeptContainer {
    private var box: AnyObject?
    private var keyType: ObjectIdentifier?

    /// The kept container of `Key`, or the one `make` returns, kept when
    /// no container is.
    @inline(__always)
    mutating func container<Key: CodingKey, Container>(for key: Key.Type, make: () -> Container) -> Container {
        let identifier = ObjectIdentifier(Key.self)
        if identifier == keyType, let box {
            // Only a container of `Key` is kept with `Key`.
            return unsafeDowncast(box, to: Box<Container>.self).container
        }
        let container = make()
        if keyType == nil {
            box = Box(container)
            keyType = identifier
        }
        return container
    }

    private final class Box<Container> {
        let container: Container
        init(_ container: Container) { self.container = container }
    }
}
