import Foundation
import Testing
import Trellis
import TrellisObjects

private final class Spouse: Entity {
    var id: Id = 0
    var name = ""
    var partner: ToOne<Spouse> = nil
}

private final class Club: Entity {
    var id: Id = 0
    var name = ""
    var members: ToMany<Spouse> = nil
}

/// The loads that `target` and the collection accesses of a `ToMany` can
/// not throw are kept, and thrown by the next put of the owner.
@Suite struct RelationLoadErrorTests {
    /// An object whose relations load from a store that is gone.
    private func detachedObjects() throws -> (Spouse, Club) {
        let store = try Store()
        let amanda = Spouse()
        amanda.name = "Amanda"
        let bob = Spouse()
        bob.name = "Bob"
        amanda.partner.target = bob
        try store.box(for: Spouse.self).put(amanda)
        let club = Club()
        club.members.append(amanda)
        try store.box(for: Club.self).put(club)
        let readAmanda = try #require(try store.box(for: Spouse.self).get(amanda.id))
        let readClub = try #require(try store.box(for: Club.self).get(club.id))
        try store.close()
        return (readAmanda, readClub)
    }

    @Test func aTargetThatCanNotLoadReadsNilAndTheNextPutThrows() throws {
        let (amanda, _) = try detachedObjects()
        #expect(amanda.partner.target == nil)
        #expect(amanda.partner.loadError != nil)
        #expect(throws: (any Error).self) { _ = try amanda.partner.resolve() }
        let other = try Store()
        // The error of the load, before any statement runs.
        #expect { try other.box(for: Spouse.self).put(amanda) } throws: { !($0 is DatabaseError) }
        #expect(try other.box(for: Spouse.self).count() == 0)
        // Reported once: the next put stores the object.
        amanda.partner = nil
        try other.box(for: Spouse.self).put(amanda)
        #expect(try other.box(for: Spouse.self).count() == 1)
    }

    @Test func aListThatCanNotLoadReadsEmptyAndTheNextWriteThrows() throws {
        let (_, club) = try detachedObjects()
        #expect(club.members.isEmpty)
        #expect(club.members.loadError != nil)
        // A list built on the failed read is not written.
        let carol = Spouse()
        carol.name = "Carol"
        club.members.append(carol)
        let other = try Store()
        #expect(throws: (any Error).self) { try other.box(for: Club.self).put(club) }
        #expect(try other.box(for: Spouse.self).count() == 0)
    }
}
