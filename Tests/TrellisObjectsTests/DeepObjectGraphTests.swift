import Foundation
import Testing
import Trellis
import TrellisObjects

private final class Link: Entity {
    var id: Id = 0
    var position = 0
    var next: ToOne<Link> = nil
    init() {}
    init(_ position: Int) { self.position = position }
}

private final class Branch: Entity {
    var id: Id = 0
    var position = 0
    var parent: ToOne<Branch> = nil
    var children: ToMany<Branch> = nil
    init() {}
    init(_ position: Int) { self.position = position }
}

/// Runs `work` on a thread with a small stack (the size of a secondary
/// thread's on some platforms), and returns its error, if any.
private func onSmallStack(_ work: @escaping @Sendable () throws -> Void) -> (any Error)? {
    final class Outcome: @unchecked Sendable {
        var error: (any Error)?
        let done = DispatchSemaphore(value: 0)
    }
    let outcome = Outcome()
    let thread = Thread {
        do { try work() } catch { outcome.error = error }
        outcome.done.signal()
    }
    thread.stackSize = 512 * 1024
    thread.start()
    outcome.done.wait()
    return outcome.error
}

/// Puts follow relations to new objects; a long chain of them is put
/// without exhausting the stack.
@Suite struct DeepObjectGraphTests {
    @Test func aLongChainOfNewObjectsLinkedByToOneIsPut() throws {
        let store = try Store()
        let error = onSmallStack {
            let links = (0..<10_000).map(Link.init)
            for (link, next) in zip(links, links.dropFirst()) { link.next.target = next }
            try store.box(for: Link.self).put(links[0])
        }
        #expect(error == nil)
        let rows = try store.queue.read { db in
            try Row.fetchAll(db, sql: "SELECT a.position, b.position AS next FROM Link a LEFT JOIN Link b ON b.id = a.nextId ORDER BY a.position")
        }
        #expect(rows.count == 10_000)
        #expect(rows.allSatisfy { row in
            let position: Int = row["position"]
            let next: Int? = row["next"]
            return next == (position == 9_999 ? nil : position + 1)
        })
    }

    @Test func aLongChainOfNewObjectsLinkedByToManyIsPut() throws {
        let store = try Store()
        let error = onSmallStack {
            let branches = (0..<5_000).map(Branch.init)
            for (branch, child) in zip(branches, branches.dropFirst()) { branch.children.append(child) }
            try store.box(for: Branch.self).put(branches[0])
        }
        #expect(error == nil)
        let rows = try store.queue.read { db in
            try Row.fetchAll(db, sql: "SELECT a.position, b.position AS parent FROM Branch a LEFT JOIN Branch b ON b.id = a.parentId ORDER BY a.position")
        }
        #expect(rows.count == 5_000)
        #expect(rows.allSatisfy { row in
            let position: Int = row["position"]
            let parent: Int? = row["parent"]
            return parent == (position == 0 ? nil : position - 1)
        })
        let root = try #require(try store.box(for: Branch.self).query { Property<Branch, Int>("position") == 0 }.build().findFirst())
        #expect(root.children.map(\.position) == [1])
    }

    @Test func aShortChainIsPutInOrderTargetsFirst() throws {
        let store = try Store()
        let links = (0..<5).map(Link.init)
        for (link, next) in zip(links, links.dropFirst()) { link.next.target = next }
        try store.box(for: Link.self).put(links[0])
        // The last target gets the first id, as when ObjectBox puts the
        // targets of a new object before it.
        #expect(links.map(\.id) == [5, 4, 3, 2, 1])
    }
}
