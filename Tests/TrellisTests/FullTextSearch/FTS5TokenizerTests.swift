import Foundation
import Testing
import Trellis

/// Custom FTS5 tokenizers, from GRDB's "FTS5 Tokenizers" guide. The
/// expected tokens and matches are those of GRDB 7.10.0 on the same code.
@Suite struct FTS5TokenizerTests {
    final class SynonymsTokenizer: FTS5WrapperTokenizer {
        static let name = "synonyms"
        let wrappedTokenizer: any FTS5Tokenizer
        let synonyms: [Set<String>] = [["first", "1st"]]

        init(db: Database, arguments: [String]) throws {
            wrappedTokenizer = try db.makeTokenizer(.unicode61())
        }

        func synonyms(for token: String) -> Set<String>? {
            synonyms.first { $0.contains(token) }
        }

        func accept(token: String, flags: FTS5TokenFlags, for tokenization: FTS5Tokenization, tokenCallback: FTS5WrapperTokenCallback) throws {
            if tokenization.contains(.query) {
                try tokenCallback(token, flags)
                return
            }
            guard let synonyms = synonyms(for: token) else {
                try tokenCallback(token, flags)
                return
            }
            for (index, synonym) in synonyms.sorted().enumerated() {
                let synonymFlags = (index == 0) ? flags : flags.union(.colocated)
                try tokenCallback(synonym, synonymFlags)
            }
        }
    }

    /// Uppercases each token, then adds it again with an "x" prefix: shows
    /// what reaches FTS5, and the arguments of the table.
    final class EchoTokenizer: FTS5WrapperTokenizer {
        static let name = "echo"
        nonisolated(unsafe) static var lastArguments: [String] = []
        let wrappedTokenizer: any FTS5Tokenizer

        init(db: Database, arguments: [String]) throws {
            Self.lastArguments = arguments
            wrappedTokenizer = try db.makeTokenizer(.unicode61())
        }

        func accept(token: String, flags: FTS5TokenFlags, for tokenization: FTS5Tokenization, tokenCallback: FTS5WrapperTokenCallback) throws {
            try tokenCallback(token.uppercased(), flags)
            try tokenCallback("x" + token, flags.union(.colocated))
        }
    }

    /// Refuses to be made: the statement that needs it fails.
    final class FailingTokenizer: FTS5CustomTokenizer {
        static let name = "failing"
        struct Refused: Error {}

        init(db: Database, arguments: [String]) throws {
            throw Refused()
        }

        func tokenize(context: UnsafeMutableRawPointer?, tokenization: FTS5Tokenization, pText: UnsafePointer<CChar>?,
                      nText: CInt, tokenCallback: @escaping FTS5TokenCallback) -> CInt {
            0
        }
    }

    private func makeQueue() throws -> DatabaseQueue {
        var config = Configuration()
        config.prepareDatabase { db in
            db.add(tokenizer: SynonymsTokenizer.self)
            db.add(tokenizer: EchoTokenizer.self)
            db.add(tokenizer: FailingTokenizer.self)
        }
        return try DatabaseQueue(configuration: config)
    }

    @Test func builtInTokenizersTokenizeDocumentsAndQueries() throws {
        try makeQueue().read { db in
            let unicode61 = try db.makeTokenizer(.unicode61())
            #expect(try unicode61.tokenize(document: "Héllo Wörld").map(\.token) == ["hello", "world"])
            #expect(try unicode61.tokenize(query: "Héllo").map(\.token) == ["hello"])
            let porter = try db.makeTokenizer(.porter())
            #expect(try porter.tokenize(document: "database engines").map(\.token) == ["databas", "engin"])
        }
        #expect(FTS5Tokenization.query.rawValue == 1)
        #expect(FTS5Tokenization.prefix.rawValue == 2)
        #expect(FTS5Tokenization.document.rawValue == 4)
        #expect(FTS5Tokenization.aux.rawValue == 8)
    }

    @Test("dbQueue.add(tokenizer:) registers the tokenizer on the queue's connection")
    func queueRegistersTokenizer() throws {
        let dbQueue = try DatabaseQueue()
        dbQueue.add(tokenizer: SynonymsTokenizer.self)
        let count = try dbQueue.write { db in
            try db.create(virtualTable: "documents", using: FTS5()) { t in
                t.tokenizer = SynonymsTokenizer.tokenizerDescriptor()
                t.column("content")
            }
            try db.execute(sql: "INSERT INTO documents VALUES (?)", arguments: ["I won first place"])
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM documents WHERE documents MATCH ?", arguments: ["1st"])
        }
        #expect(count == 1)
    }

    @Test("dbPool.add(tokenizer:) registers the tokenizer on the writer, the readers, and those that open later")
    func poolRegistersTokenizer() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tokenizer-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let dbPool = try DatabasePool(path: path)
        // A reader opened before the registration, and one after.
        _ = try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT 1") }
        dbPool.add(tokenizer: SynonymsTokenizer.self)
        try dbPool.write { db in
            try db.create(virtualTable: "documents", using: FTS5()) { t in
                t.tokenizer = SynonymsTokenizer.tokenizerDescriptor()
                t.column("content")
            }
            try db.execute(sql: "INSERT INTO documents VALUES (?)", arguments: ["I won first place"])
        }
        let sql = "SELECT COUNT(*) FROM documents WHERE documents MATCH ?"
        let counts = try (0..<4).map { _ in try dbPool.read { db in try Int.fetchOne(db, sql: sql, arguments: ["1st"]) } }
        let concurrent = try dbPool.read { _ in
            try dbPool.unsafeReentrantRead { db in try Int.fetchOne(db, sql: sql, arguments: ["1st"]) }
        }
        let snapshot = try dbPool.makeSnapshot().read { db in try Int.fetchOne(db, sql: sql, arguments: ["1st"]) }
        #expect(counts == [1, 1, 1, 1])
        #expect(concurrent == 1)
        #expect(snapshot == 1)
    }

    @Test func synonymsMatchEachOther() throws {
        try makeQueue().write { db in
            try db.create(virtualTable: "documents", using: FTS5()) { t in
                t.tokenizer = SynonymsTokenizer.tokenizerDescriptor()
                t.column("content")
            }
            try db.execute(sql: "INSERT INTO documents VALUES (?)", arguments: ["I won first place"])
            try db.execute(sql: "INSERT INTO documents VALUES (?)", arguments: ["I was second"])
            let count = { (query: String) in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM documents WHERE documents MATCH ?", arguments: [query])
            }
            #expect(try count("first") == 1)
            #expect(try count("1st") == 1)
            #expect(try count("second") == 1)
            #expect(try count("third") == 0)
            let tokens = try db.makeTokenizer(SynonymsTokenizer.tokenizerDescriptor()).tokenize(document: "first place")
            #expect(tokens.map(\.token) == ["1st", "first", "place"])
            #expect(tokens.map(\.flags) == [[], .colocated, []])
        }
    }

    @Test func theTableGivesItsArgumentsToTheTokenizer() throws {
        try makeQueue().write { db in
            try db.create(virtualTable: "documents", using: FTS5()) { t in
                t.tokenizer = EchoTokenizer.tokenizerDescriptor(arguments: ["x", "y z"])
                t.column("content")
            }
            #expect(try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'documents'")
                == #"CREATE VIRTUAL TABLE "documents" USING fts5(content, tokenize='''echo'' ''x'' ''y z''')"#)
            try db.execute(sql: "INSERT INTO documents VALUES ('hello world')")
            #expect(EchoTokenizer.lastArguments == ["x", "y z"])
            let tokens = try db.makeTokenizer(EchoTokenizer.tokenizerDescriptor()).tokenize(document: "ab cd")
            #expect(tokens.map(\.token) == ["AB", "xab", "CD", "xcd"])
            #expect(tokens.map(\.flags.rawValue) == [0, 1, 0, 1])
        }
    }

    @Test func unknownAndFailingTokenizersAreErrors() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db in
            let unknown = #expect(throws: DatabaseError.self) {
                try db.makeTokenizer(FTS5TokenizerDescriptor(components: ["nope"]))
            }
            #expect(unknown?.message == "no such tokenizer: nope")
            #expect(throws: DatabaseError.self) {
                try db.create(virtualTable: "documents", using: FTS5()) { t in
                    t.tokenizer = FailingTokenizer.tokenizerDescriptor()
                    t.column("content")
                }
            }
            #expect(throws: DatabaseError.self) {
                try db.makeTokenizer(FailingTokenizer.tokenizerDescriptor())
            }
        }
        // The connection goes on.
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT 1") } == 1)
    }

    @Test func aTokenizerNotRegisteredOnTheConnectionIsUnknown() throws {
        let dbQueue = try DatabaseQueue()
        let error = #expect(throws: DatabaseError.self) {
            try dbQueue.write { db in
                try db.create(virtualTable: "documents", using: FTS5()) { t in
                    t.tokenizer = SynonymsTokenizer.tokenizerDescriptor()
                    t.column("content")
                }
            }
        }
        #expect(error?.message?.contains("synonyms") == true)
    }
}
