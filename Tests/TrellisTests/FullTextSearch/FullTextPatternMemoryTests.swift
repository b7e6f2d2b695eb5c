import Testing
import Trellis
import TrellisSQLite

/// Found by fuzzing: checking a raw pattern, or tokenizing with FTS3,
/// opened a private connection that its cached statements kept alive, so
/// each call left a connection behind (about 2 KB of SQLite memory).
@Suite struct FullTextPatternMemoryTests {
    /// The least SQLite memory that 1,500 calls of `body` keep, over three
    /// rounds: 3,000 leaked connections would keep 6 MB or more in each
    /// round, while the tests that run meanwhile rarely keep memory in all
    /// three.
    private func keptMemory(_ body: () throws -> Void) rethrows -> Int64 {
        var least = Int64.max
        for _ in 0..<3 {
            let before = sqlite3_memory_used()
            for _ in 0..<1_500 { try body() }
            least = min(least, sqlite3_memory_used() - before)
        }
        return least
    }

    @Test func checkingRawPatternsKeepsNoConnection() throws {
        let kept = try keptMemory {
            _ = try FTS5Pattern(rawPattern: "sqlite AND database")
            _ = try FTS3Pattern(rawPattern: "sqlite database")
        }
        #expect(kept < 3_000_000, "\(kept) bytes kept")
    }

    @Test func tokenizingKeepsNoConnection() throws {
        var tokens: [String] = []
        let kept = try keptMemory {
            tokens = try FTS3.tokenize("SQLite database")
            tokens += try FTS3.tokenize("SQLite database")
        }
        #expect(tokens == ["sqlite", "database", "sqlite", "database"])
        #expect(kept < 3_000_000, "\(kept) bytes kept")
    }
}
