import Foundation
import TrellisSQLite

extension DatabaseQueue {
    /// Registers a custom FTS5 tokenizer on the connection of the queue, so
    /// that FTS5 tables can use it.
    ///
    /// ```swift
    /// let dbQueue = try DatabaseQueue(path: "/path/to/db.sqlite")
    /// dbQueue.add(tokenizer: LatinAsciiTokenizer.self)
    /// try dbQueue.write { db in
    ///     try db.create(virtualTable: "document", using: FTS5()) { t in
    ///         t.tokenizer = LatinAsciiTokenizer.tokenizerDescriptor()
    ///         t.column("content")
    ///     }
    /// }
    /// ```
    public func add<Tokenizer: FTS5CustomTokenizer>(tokenizer: Tokenizer.Type) {
        inDatabase { db in db.add(tokenizer: tokenizer) }
    }
}

extension DatabasePool {
    /// Registers a custom FTS5 tokenizer on every connection of the pool:
    /// the writer, the readers, and the readers and snapshots that open
    /// later.
    ///
    /// ```swift
    /// let dbPool = try DatabasePool(path: "/path/to/db.sqlite")
    /// dbPool.add(tokenizer: LatinAsciiTokenizer.self)
    /// ```
    public func add<Tokenizer: FTS5CustomTokenizer & GRDBSendableMetatype>(tokenizer: Tokenizer.Type) {
        // The readers that open later register it on their own threads.
        for connection in connectionsAddingPreparation({ db in db.add(tokenizer: Tokenizer.self) }) {
            connection.syncWithoutErrors { db in db.add(tokenizer: tokenizer) }
        }
    }
}

extension Database {
    /// Registers a custom tokenizer on this connection, so that FTS5
    /// tables can use it. Register it on every connection that reads or
    /// writes such tables: in `Configuration.prepareDatabase`.
    ///
    /// ```swift
    /// var config = Configuration()
    /// config.prepareDatabase { db in
    ///     db.add(tokenizer: SynonymsTokenizer.self)
    /// }
    /// ```
    ///
    /// Without FTS5 in the SQLite library, nothing is registered, and the
    /// tables that name the tokenizer fail to be created or read (`no such
    /// tokenizer`).
    public func add<Tokenizer: FTS5CustomTokenizer>(tokenizer: Tokenizer.Type) {
        guard let api = try? fts5API() else { return }
        let constructor = CustomTokenizerConstructor(db: self) { db, arguments in
            try Tokenizer(db: db, arguments: arguments)
        }
        var methods = fts5_tokenizer(
            xCreate: { context, arguments, argumentCount, tokenizer in
                guard let context, let tokenizer else { return SQLITE_ERROR }
                let constructor = Unmanaged<CustomTokenizerConstructor>.fromOpaque(context).takeUnretainedValue()
                guard let db = constructor.db else { return SQLITE_ERROR }
                let arguments = (0..<Int(max(argumentCount, 0))).map { index in
                    arguments?[index].map { String(cString: $0) } ?? ""
                }
                do {
                    let box = TokenizerBox(try constructor.make(db, arguments))
                    tokenizer.pointee = OpaquePointer(Unmanaged.passRetained(box).toOpaque())
                    return SQLITE_OK
                } catch {
                    return SQLITE_ERROR
                }
            },
            xDelete: { tokenizer in
                guard let tokenizer else { return }
                Unmanaged<TokenizerBox>.fromOpaque(UnsafeRawPointer(tokenizer)).release()
            },
            xTokenize: { tokenizer, context, flags, pText, nText, xToken in
                guard let tokenizer, let xToken else { return SQLITE_ERROR }
                return Unmanaged<TokenizerBox>.fromOpaque(UnsafeRawPointer(tokenizer)).takeUnretainedValue().tokenizer
                    .tokenize(context: context, tokenization: FTS5Tokenization(rawValue: flags),
                              pText: pText, nText: nText, tokenCallback: xToken)
            })
        // FTS5 copies `methods`, and keeps the constructor until the
        // tokenizer is replaced or the connection closes.
        let context = Unmanaged.passRetained(constructor).toOpaque()
        let code = api.pointee.xCreateTokenizer(api, Tokenizer.name, context, &methods, { context in
            if let context { Unmanaged<CustomTokenizerConstructor>.fromOpaque(context).release() }
        })
        if code != SQLITE_OK {
            Unmanaged<CustomTokenizerConstructor>.fromOpaque(context).release()
        }
    }

    /// Makes a tokenizer: a built-in one, or a custom one registered with
    /// ``add(tokenizer:)``. Wrapper tokenizers use it for the tokenizer
    /// they wrap; it also shows how a table will tokenize text.
    ///
    /// ```swift
    /// let unicode61 = try db.makeTokenizer(.unicode61())
    /// try unicode61.tokenize(document: "Héllo Wörld").map(\.token) // ["hello", "world"]
    /// ```
    ///
    /// - throws: a `DatabaseError` when the tokenizer does not exist, or
    ///   refuses its arguments.
    public func makeTokenizer(_ descriptor: FTS5TokenizerDescriptor) throws -> any FTS5Tokenizer {
        guard let name = descriptor.components.first else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "a tokenizer descriptor needs a tokenizer name")
        }
        let api = try fts5API()
        var context: UnsafeMutableRawPointer?
        var methods = fts5_tokenizer()
        guard api.pointee.xFindTokenizer(api, name, &context, &methods) == SQLITE_OK,
              let create = methods.xCreate, let delete = methods.xDelete, let tokenize = methods.xTokenize
        else {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "no such tokenizer: \(name)")
        }
        let arguments = descriptor.components.dropFirst().map { strdup($0) }
        defer { arguments.forEach { free($0) } }
        var handle: OpaquePointer?
        var pointers = arguments.map { UnsafePointer<CChar>($0) }
        let code = pointers.withUnsafeMutableBufferPointer { pointers in
            create(context, pointers.baseAddress, CInt(pointers.count), &handle)
        }
        guard code == SQLITE_OK, let handle else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code == SQLITE_OK ? SQLITE_ERROR : code),
                message: "could not make the tokenizer \(descriptor.components.joined(separator: " "))")
        }
        return FTS5TokenizerHandle(handle: handle, delete: delete, tokenize: tokenize)
    }

    /// The FTS5 extension API of the connection.
    private func fts5API() throws -> UnsafeMutablePointer<fts5_api> {
        guard let connection = sqliteConnection else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "the connection is closed")
        }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(connection, "SELECT fts5(?)", -1, &statement, nil) == SQLITE_OK, let statement else {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "FTS5 is not available in this SQLite library")
        }
        defer { sqlite3_finalize(statement) }
        var api: UnsafeMutablePointer<fts5_api>?
        // SQLite compares the pointer type name when the statement runs:
        // it must outlive the call, as a static string does.
        let pointerType: StaticString = "fts5_api_ptr"
        _ = withUnsafeMutablePointer(to: &api) { api in
            pointerType.utf8Start.withMemoryRebound(to: CChar.self, capacity: pointerType.utf8CodeUnitCount + 1) { type in
                sqlite3_bind_pointer(statement, 1, api, type, nil)
            }
        }
        sqlite3_step(statement)
        guard let api, api.pointee.iVersion >= 2 else {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "FTS5 is not available in this SQLite library")
        }
        return api
    }
}

/// What makes the instances of a registered custom tokenizer.
private final class CustomTokenizerConstructor {
    weak var db: Database?
    let make: (Database, [String]) throws -> any FTS5Tokenizer

    init(db: Database, make: @escaping (Database, [String]) throws -> any FTS5Tokenizer) {
        self.db = db
        self.make = make
    }
}

/// A tokenizer instance that FTS5 holds: an existential does not fit in a
/// pointer.
private final class TokenizerBox {
    let tokenizer: any FTS5Tokenizer

    init(_ tokenizer: any FTS5Tokenizer) {
        self.tokenizer = tokenizer
    }
}

/// A tokenizer that FTS5 made: a built-in one, or a registered custom one.
private final class FTS5TokenizerHandle: FTS5Tokenizer {
    /// `fts5_tokenizer.xTokenize`.
    typealias TokenizeFunction = @convention(c) (
        OpaquePointer?, UnsafeMutableRawPointer?, CInt, UnsafePointer<CChar>?, CInt, FTS5TokenCallback?) -> CInt

    private let handle: OpaquePointer
    private let delete: @convention(c) (OpaquePointer?) -> Void
    private let tokenizeFunction: TokenizeFunction

    init(handle: OpaquePointer, delete: @escaping @convention(c) (OpaquePointer?) -> Void, tokenize: @escaping TokenizeFunction) {
        self.handle = handle
        self.delete = delete
        self.tokenizeFunction = tokenize
    }

    deinit {
        delete(handle)
    }

    func tokenize(
        context: UnsafeMutableRawPointer?,
        tokenization: FTS5Tokenization,
        pText: UnsafePointer<CChar>?,
        nText: CInt,
        tokenCallback: @escaping FTS5TokenCallback) -> CInt
    {
        tokenizeFunction(handle, context, tokenization.rawValue, pText, nText, tokenCallback)
    }
}
