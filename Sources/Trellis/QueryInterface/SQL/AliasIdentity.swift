/// The identity of a table in a query: the same table joined twice has two
/// identities, and the SQL generator names each one.
///
/// The table name is known when the identity is created from a record
/// type, or when a request adopts it (`aliased(_:)`).
final class AliasIdentity: @unchecked Sendable {
    // `tableName` is set once, when a request adopts an alias created
    // without a table: requests are built before they are shared.
    private(set) var tableName: String
    let userName: String?
    /// Whether the alias comes from a `TableAlias` of the user, who may
    /// refer to it: it is kept when its association joins a request.
    let isExplicit: Bool

    init(tableName: String, userName: String? = nil, isExplicit: Bool = false) {
        self.tableName = tableName
        self.userName = userName
        self.isExplicit = isExplicit
    }

    /// Binds the alias to a table. Returns false when it already refers
    /// to another one.
    func adopt(tableName: String) -> Bool {
        if self.tableName.isEmpty {
            self.tableName = tableName
            return true
        }
        return self.tableName.lowercased() == tableName.lowercased()
    }
}
