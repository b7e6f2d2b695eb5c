import FuzzSupport
import Trellis

/// Full-text tables of each kind, with a few documents, that each pattern
/// is matched against.
private let dbQueue: DatabaseQueue = {
    do {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE VIRTUAL TABLE doc5 USING fts5(title, body);
                CREATE VIRTUAL TABLE doc4 USING fts4(title, body);
                CREATE VIRTUAL TABLE doc3 USING fts3(title, body);
                """)
            for table in ["doc5", "doc4", "doc3"] {
                try db.execute(
                    sql: "INSERT INTO \(table)(title, body) VALUES ('Moby Dick', 'Call me Ishmael'), ('SQLite', 'a database engine')")
            }
        }
        return dbQueue
    } catch {
        fuzzFailure("can not create the full-text tables: \(error)")
    }
}()

private func match(_ table: String, _ rawPattern: String, origin: String) {
    do {
        _ = try dbQueue.read { db in
            try Row.fetchAll(db, sql: "SELECT rowid FROM \(table) WHERE \(table) MATCH ?", arguments: [rawPattern])
        }
    } catch {
        fuzzFailure("\(origin) gave \(String(reflecting: rawPattern)), which \(table) refuses: \(error)")
    }
}

/// Patterns built from any string: those built from a user's words always
/// match without error, and a raw pattern that Trellis accepts is one that
/// SQLite accepts.
@_cdecl("LLVMFuzzerTestOneInput")
public func fullTextPatternFuzzer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let string = String(decoding: fuzzInput(data, size), as: UTF8.self)
    let fts5: [(String, FTS5Pattern?)] = [
        ("FTS5Pattern(matchingAnyTokenIn:)", FTS5Pattern(matchingAnyTokenIn: string)),
        ("FTS5Pattern(matchingAllTokensIn:)", FTS5Pattern(matchingAllTokensIn: string)),
        ("FTS5Pattern(matchingAllPrefixesIn:)", FTS5Pattern(matchingAllPrefixesIn: string)),
        ("FTS5Pattern(matchingPhrase:)", FTS5Pattern(matchingPhrase: string)),
        ("FTS5Pattern(matchingPrefixPhrase:)", FTS5Pattern(matchingPrefixPhrase: string)),
    ]
    for case let (origin, pattern?) in fts5 {
        match("doc5", pattern.rawPattern, origin: origin)
        if (try? FTS5Pattern(rawPattern: pattern.rawPattern)) == nil {
            fuzzFailure("\(origin) gave \(String(reflecting: pattern.rawPattern)), which FTS5Pattern(rawPattern:) refuses")
        }
    }
    let fts3: [(String, FTS3Pattern?)] = [
        ("FTS3Pattern(matchingAnyTokenIn:)", FTS3Pattern(matchingAnyTokenIn: string)),
        ("FTS3Pattern(matchingAllTokensIn:)", FTS3Pattern(matchingAllTokensIn: string)),
        ("FTS3Pattern(matchingAllPrefixesIn:)", FTS3Pattern(matchingAllPrefixesIn: string)),
        ("FTS3Pattern(matchingPhrase:)", FTS3Pattern(matchingPhrase: string)),
    ]
    for case let (origin, pattern?) in fts3 {
        match("doc4", pattern.rawPattern, origin: origin)
        match("doc3", pattern.rawPattern, origin: origin)
        if (try? FTS3Pattern(rawPattern: pattern.rawPattern)) == nil {
            fuzzFailure("\(origin) gave \(String(reflecting: pattern.rawPattern)), which FTS3Pattern(rawPattern:) refuses")
        }
    }
    if let pattern = try? FTS5Pattern(rawPattern: string, allowedColumns: ["title", "body"]) {
        match("doc5", pattern.rawPattern, origin: "FTS5Pattern(rawPattern:)")
    }
    if let pattern = try? FTS3Pattern(rawPattern: string) {
        match("doc4", pattern.rawPattern, origin: "FTS3Pattern(rawPattern:)")
    }
    return 0
}

/// The entry point, in the file of the test function, which it refers
/// to as a C function: SwiftPM links the executable's `main` to
/// `FullTextPatternFuzzer_main` on Linux, and `-parse-as-library` leaves Swift from
/// defining one.
@_cdecl("FullTextPatternFuzzer_main")
public func fullTextPatternFuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(fullTextPatternFuzzer)
}
