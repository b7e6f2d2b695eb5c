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

    /// The alias this one stands for, after two joins of one association
    /// merged (`root` follows the chain): both aliases then name one table.
    /// Set when a request is built, before it is shared.
    private var target: AliasIdentity?

    /// The alias that names the table in the generated SQL.
    var root: AliasIdentity { target?.root ?? self }

    /// Makes two aliases of one table name it together, when two joins of
    /// one association merge. Returns an error when both were given
    /// different names.
    func merge(_ other: AliasIdentity) -> DatabaseError? {
        let root = self.root
        let otherRoot = other.root
        if root === otherRoot { return nil }
        if let name = root.userName, let otherName = otherRoot.userName, name != otherName {
            return DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "An association is joined twice with table aliases of different names: \(name) and \(otherName)")
        }
        // The named alias names the table.
        if otherRoot.userName != nil {
            root.target = otherRoot
        } else {
            otherRoot.target = root
        }
        return nil
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
