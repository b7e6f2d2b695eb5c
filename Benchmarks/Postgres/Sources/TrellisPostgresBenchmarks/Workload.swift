import Foundation

/// The sizes of the workloads, as in the SQLite benchmarks: `--quick`
/// divides them by ten.
struct Sizes: Sendable {
    var inserts = 20_000
    var rows = 100_000
    var books = 100_000
    var authors = 1_000
    var lookups = 100_000

    static func quick() -> Sizes {
        Sizes(inserts: 2_000, rows: 10_000, books: 10_000, authors: 100, lookups: 10_000)
    }
}

/// One workload on one backend: run, it returns a checksum over every
/// value read so that the backends can be compared. The setup of a write
/// workload (emptying its table) is the same for all backends, and runs
/// outside the timed part: see `Fixture.prepare(_:on:)`.
struct BenchmarkTask {
    var run: () async throws -> Int
}

/// The workloads of a backend. A backend that does not run a workload
/// returns nil.
protocol Backend {
    var name: String { get }
    func task(_ workload: String, sizes: Sizes) throws -> BenchmarkTask?
}

/// The workload that raw postgres-nio and Fluent run in place of a
/// Trellis workload: the Codable and macro variants of Trellis do the
/// same work.
func baseWorkload(of workload: String) -> String {
    switch workload {
    case "W1c", "W1m": "W1"
    case "W2c", "W2m": "W2"
    case "W3", "W3m": "W3"
    default: workload
    }
}

/// The identifiers and descriptions of the workloads, in order.
let workloads: [(id: String, description: String)] = [
    ("W1c", "insert 20,000 records of 10 integer columns in one transaction (Codable)"),
    ("W1m", "insert 20,000 records of 10 integer columns in one transaction (@DatabaseRecord)"),
    ("W2c", "fetch 100,000 rows of 10 integer columns into structs (Codable)"),
    ("W2m", "fetch 100,000 rows of 10 integer columns into structs (@DatabaseRecord)"),
    ("W3", "fetch 100,000 books, each with its author (including(required:), Codable)"),
    ("W3m", "fetch 100,000 books, each with its author (including(required:), @DatabaseRecord)"),
    ("W6", "100,000 primary-key lookups in one transaction"),
]

/// The checksum of the items that W2 reads and W1 writes.
func itemChecksum(id: Int, _ c1: Int, _ c2: Int, _ c3: Int, _ c4: Int, _ c5: Int, _ c6: Int, _ c7: Int, _ c8: Int, _ c9: Int) -> Int {
    id &+ c1 &+ c2 &+ c3 &+ c4 &+ c5 &+ c6 &+ c7 &+ c8 &+ c9
}

/// The checksum of one book and its author that W3 reads.
func bookChecksum(bookID: Int, authorID: Int, year: Int, title: String, name: String) -> Int {
    bookID &+ authorID &+ year &+ title.utf8.count &+ name.utf8.count
}
