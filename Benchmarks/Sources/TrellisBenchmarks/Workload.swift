import Foundation

/// The sizes of the workloads: `--quick` divides them by ten.
struct Sizes: Sendable {
    var inserts = 20_000
    var rows = 100_000
    var books = 100_000
    var authors = 1_000
    var booksPerAuthor = 20
    var cycles = 10_000
    var lookups = 100_000
    var objects = 100_000

    static func quick() -> Sizes {
        Sizes(inserts: 2_000, rows: 10_000, books: 10_000, authors: 100, booksPerAuthor: 20, cycles: 1_000, lookups: 10_000, objects: 10_000)
    }
}

/// One workload on one backend: prepared outside the timed part, then
/// run, returning a checksum over every value read so that the backends
/// can be compared.
struct Task {
    var prepare: () throws -> Void = {}
    var run: () throws -> Int
}

/// The workload that another backend runs in place of a Trellis macro
/// workload: the same work, with the records it writes by hand.
func twinWorkload(of workload: String) -> String? {
    guard workload.hasSuffix("m") else { return nil }
    let base = String(workload.dropLast())
    return ["W1", "W2", "W3", "W4"].contains(base) ? base + "h" : base
}

/// The workloads of a backend. A backend that does not run a workload
/// returns nil.
protocol Backend {
    var name: String { get }
    /// Whether the backend runs the twin of a macro workload that it does
    /// not run itself: a floor backend measures one form of records only.
    var standsInForTwins: Bool { get }
    func task(_ workload: String, sizes: Sizes, path: String) throws -> Task?
}

extension Backend {
    var standsInForTwins: Bool { true }
}

/// The identifiers and descriptions of the workloads, in order.
let workloads: [(id: String, description: String)] = [
    ("W1c", "insert 20,000 records of 10 integer columns in one transaction (Codable)"),
    ("W1h", "insert 20,000 records of 10 integer columns in one transaction (hand-written encoding)"),
    ("W1m", "insert 20,000 records of 10 integer columns in one transaction (@DatabaseRecord)"),
    ("W2c", "fetch 100,000 rows of 10 integer columns into structs (Codable)"),
    ("W2h", "fetch 100,000 rows of 10 integer columns into structs (hand-written init(row:))"),
    ("W2m", "fetch 100,000 rows of 10 integer columns into structs (@DatabaseRecord)"),
    ("W3", "fetch 100,000 books, each with its author (including(required:))"),
    ("W3h", "fetch 100,000 books, each with its author (including(required:), hand-written init(row:))"),
    ("W3m", "fetch 100,000 books, each with its author (including(required:), @DatabaseRecord)"),
    ("W4", "fetch 1,000 authors with their 20 books each (including(all:))"),
    ("W4h", "fetch 1,000 authors with their 20 books each (including(all:), hand-written init(row:))"),
    ("W4m", "fetch 1,000 authors with their 20 books each (including(all:), @DatabaseRecord)"),
    ("W5", "10,000 cycles: read a single-row configuration, then update it in a write"),
    ("W5m", "10,000 cycles: read a single-row configuration, then update it in a write (@DatabaseRecord)"),
    ("W6", "100,000 primary-key lookups"),
    ("W6m", "100,000 primary-key lookups (@DatabaseRecord)"),
    ("O1", "put 100,000 objects with a ToOne each"),
    ("O2", "get all 100,000 objects"),
    ("O3", "100,000 gets by id"),
    ("O1m", "put 100,000 objects with a ToOne each (@Entity)"),
    ("O2m", "get all 100,000 objects (@Entity)"),
    ("O3m", "100,000 gets by id (@Entity)"),
]
