import Testing
import Trellis
import TrellisObjects

/// An object whose `init()` runs a hook: the reads by id below make one
/// while they read another object of the same type, whose statement is
/// then between its steps.
@Entity
private final class Node {
    nonisolated(unsafe) static var onInit: (() -> Void)?

    var id: Id = 0
    var label = ""

    init() { Node.onInit?() }
}

/// The same, read through its `Codable` conformance.
private final class CodableNode: Entity {
    nonisolated(unsafe) static var onInit: (() -> Void)?

    var id: Id = 0
    var label = ""

    init() { CodableNode.onInit?() }

    required init(from decoder: any Decoder) throws {
        CodableNode.onInit?()
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Id.self, forKey: .id)
        label = try container.decode(String.self, forKey: .label)
    }

    enum CodingKeys: String, CodingKey { case id, label }
}

/// A node of either form, for the one test of both.
private protocol HookedNode: Entity, AnyObject {
    static var onInit: (() -> Void)? { get set }
    var label: String { get set }
    init()
}

extension Node: HookedNode {}
extension CodableNode: HookedNode {}

@Suite("Nested reads by id", .serialized)
struct NestedReadTests {
    @Test("a read by id made while another object of the type is read gets the right object, and so does the outer read")
    func macroEntity() throws {
        try checkNestedReads(of: Node.self)
    }

    @Test("the same with a Codable entity")
    func codableEntity() throws {
        try checkNestedReads(of: CodableNode.self)
    }

    private func checkNestedReads<N: HookedNode>(of type: N.Type) throws {
        let store = try Store()
        let box = store.box(for: N.self)
        let nodes = ["a", "b", "c"].map { label -> N in
            let node = N()
            node.label = label
            return node
        }
        try box.put(nodes)
        var innerLabels: [String] = []
        var depth = 0
        N.onInit = {
            guard depth == 0 else { return }
            depth += 1
            defer { depth -= 1 }
            if let inner = try? box.get(nodes[2].id) { innerLabels.append(inner.label) }
        }
        defer { N.onInit = nil }
        let outer = try store.runInReadOnlyTransaction {
            try [box.get(nodes[0].id)?.label, box.get(nodes[1].id)?.label]
        }
        #expect(outer == ["a", "b"])
        #expect(innerLabels == ["c", "c"])
    }
}
