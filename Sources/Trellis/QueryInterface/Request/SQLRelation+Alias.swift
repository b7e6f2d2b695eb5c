extension SQLRelation {
    /// Names the table with the user's alias (`aliased(_:)`). A table
    /// already aliased by the user keeps its alias, and both name it: a
    /// request or an association can be aliased again, and the columns of
    /// both aliases refer to the same table.
    mutating func adoptAlias(_ identity: AliasIdentity) {
        guard identity.adopt(tableName: tableName) else {
            buildError = buildError ?? DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "A TableAlias must not be used to refer to multiple tables: \(identity.tableName) and \(tableName)")
            return
        }
        guard alias.isExplicit else {
            alias = identity
            return
        }
        if let error = alias.merge(identity) {
            buildError = buildError ?? error
        }
    }
}
