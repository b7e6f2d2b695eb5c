import Foundation

/// The types that the catalog told, by identifier (OID), shared by the
/// accesses of a ``PostgreSQLDatabase``: an answer whose cells are of a
/// type that Trellis does not know without the catalog (an enum, an
/// array of one, a type that it does not convert) reads the catalog once
/// for that type, not once for each answer.
///
/// A type keeps its identifier until it is dropped, and a new type gets
/// a new one: what the catalog told of an identifier stays true.
final class PostgresUserTypes: @unchecked Sendable {
    /// What the catalog tells of a type.
    struct UserType: Sendable {
        /// The name of the type, as `format_type` writes it (`point`,
        /// `integer[]`), for the error that Trellis throws for its cells.
        var name: String
        var kind: PostgresTextForm.UserType
    }

    /// Protects `types`.
    private let lock = NSLock()
    private var types: [UInt32: UserType] = [:]

    /// The types of the given identifiers, with those of the element
    /// types of their arrays that are enums: those that are not known yet
    /// are looked up with `lookUp`, and kept.
    func types(
        _ oids: Set<UInt32>,
        lookUp: (Set<UInt32>) throws -> [UInt32: UserType]) throws -> [UInt32: UserType]
    {
        var known = lock.withLock { types }
        let missing = oids.filter { known[$0] == nil }
        if !missing.isEmpty {
            let found = try lookUp(missing)
            lock.withLock { types.merge(found) { old, _ in old } }
            known.merge(found) { old, _ in old }
        }
        return known
    }
}
