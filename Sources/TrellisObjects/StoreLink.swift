/// What the relations of a store's objects refer to: the store, weakly.
///
/// Objects may refer to each other in cycles (`alice.manager.target = bob;
/// bob.manager.target = alice`), and such a cycle must not keep the store,
/// and its database connection, open once its user lets go of it. Each
/// store has one link, which its relations share: a relation retains the
/// link, as cheap as retaining the store, and reads the weak reference only
/// when it loads. A relation whose store is gone throws when it loads,
/// rather than reading as empty.
@usableFromInline
final class StoreLink: @unchecked Sendable {
    // Written once, by the store's initializer.
    private(set) weak var store: Store?

    init() {}

    /// Links the store, at the end of its initialization.
    func attach(_ store: Store) {
        self.store = store
    }

    /// The store, or a thrown error when it was released.
    func storeToLoad(_ relation: @autoclosure () -> String) throws -> Store {
        guard let store else {
            throw ObjectBoxError.illegalState(message: "the store of \(relation()) was released: keep the store while its objects load relations")
        }
        return store
    }
}
