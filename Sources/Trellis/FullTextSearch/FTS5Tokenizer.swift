import TrellisSQLite

/// The function that a tokenizer calls for each token it finds: SQLite's
/// `xToken` callback of <https://www.sqlite.org/fts5.html#custom_tokenizers>.
///
/// - parameters:
///   - context: the opaque pointer given to the tokenizer's `tokenize`.
///   - flags: ``FTS5TokenFlags`` raw value.
///   - pToken: the token bytes, UTF-8, not necessarily nul-terminated.
///   - nToken: the number of bytes of the token.
///   - iStart: the byte offset of the token in the tokenized text.
///   - iEnd: the byte offset of the end of the token in the tokenized text.
public typealias FTS5TokenCallback = @convention(c) (
    _ context: UnsafeMutableRawPointer?,
    _ flags: CInt,
    _ pToken: UnsafePointer<CChar>?,
    _ nToken: CInt,
    _ iStart: CInt,
    _ iEnd: CInt) -> CInt

/// Why FTS5 asks for tokens: to index a document, or to run a query.
///
/// ```swift
/// if tokenization.contains(.query) { ... }
/// ```
public struct FTS5Tokenization: OptionSet, Sendable {
    public let rawValue: CInt

    public init(rawValue: CInt) {
        self.rawValue = rawValue
    }

    /// A `MATCH` query is tokenized.
    public static let query = FTS5Tokenization(rawValue: FTS5_TOKENIZE_QUERY)
    /// The query term is a prefix (`term*`): with ``query``.
    public static let prefix = FTS5Tokenization(rawValue: FTS5_TOKENIZE_PREFIX)
    /// A document is inserted into, or removed from, the index.
    public static let document = FTS5Tokenization(rawValue: FTS5_TOKENIZE_DOCUMENT)
    /// An auxiliary function (`highlight`, for example) asks for tokens.
    public static let aux = FTS5Tokenization(rawValue: FTS5_TOKENIZE_AUX)
}

/// How FTS5 registers a token.
///
/// ```swift
/// try tokenCallback("1st", flags.union(.colocated))
/// ```
public struct FTS5TokenFlags: OptionSet, Sendable {
    public let rawValue: CInt

    public init(rawValue: CInt) {
        self.rawValue = rawValue
    }

    /// The token is a synonym of the previous one, at the same position.
    public static let colocated = FTS5TokenFlags(rawValue: FTS5_TOKEN_COLOCATED)
}

/// An FTS5 tokenizer: a built-in one (`ascii`, `unicode61`, `porter`...)
/// made with ``Database/makeTokenizer(_:)``, or a custom one
/// (``FTS5CustomTokenizer``, ``FTS5WrapperTokenizer``).
///
/// ```swift
/// let unicode61 = try db.makeTokenizer(.unicode61())
/// let tokens = try unicode61.tokenize(document: "Jérôme").map(\.token) // ["jerome"]
/// ```
public protocol FTS5Tokenizer: AnyObject {
    /// Cuts `nText` bytes at `pText` into tokens, and calls `tokenCallback`
    /// with `context` for each of them: SQLite's `xTokenize` function.
    /// Returns `SQLITE_OK`, or the first other code that `tokenCallback`
    /// returns, or an error code.
    func tokenize(
        context: UnsafeMutableRawPointer?,
        tokenization: FTS5Tokenization,
        pText: UnsafePointer<CChar>?,
        nText: CInt,
        tokenCallback: @escaping FTS5TokenCallback) -> CInt
}

extension FTS5Tokenizer {
    /// The tokens of a document, as FTS5 indexes them.
    ///
    /// ```swift
    /// try tokenizer.tokenize(document: "SQLite is a database") // [("sqlite", []), ("is", []), ...]
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the tokenizer fails.
    public func tokenize(document string: String) throws -> [(token: String, flags: FTS5TokenFlags)] {
        try tokenize(string, for: .document)
    }

    /// The tokens of a query, as FTS5 looks them up.
    ///
    /// ```swift
    /// try tokenizer.tokenize(query: "database") // [("database", [])]
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the tokenizer fails.
    public func tokenize(query string: String) throws -> [(token: String, flags: FTS5TokenFlags)] {
        try tokenize(string, for: .query)
    }

    private func tokenize(_ string: String, for tokenization: FTS5Tokenization) throws -> [(token: String, flags: FTS5TokenFlags)] {
        var tokens: [(token: String, flags: FTS5TokenFlags)] = []
        var utf8 = Array(string.utf8CString)
        let code = withUnsafeMutablePointer(to: &tokens) { tokens in
            utf8.withUnsafeMutableBufferPointer { text in
                self.tokenize(
                    context: UnsafeMutableRawPointer(tokens), tokenization: tokenization,
                    pText: text.baseAddress, nText: CInt(text.count - 1),
                    tokenCallback: { context, flags, pToken, nToken, _, _ in
                        guard let context else { return SQLITE_ERROR }
                        let token = String(fts5Token: pToken, count: nToken)
                        context.assumingMemoryBound(to: [(token: String, flags: FTS5TokenFlags)].self)
                            .pointee.append((token, FTS5TokenFlags(rawValue: flags)))
                        return SQLITE_OK
                    })
            }
        }
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "the tokenizer failed")
        }
        return tokens
    }
}

extension String {
    /// The text of a token that a tokenizer hands to its callback: `count`
    /// UTF-8 bytes, not necessarily nul-terminated.
    init(fts5Token bytes: UnsafePointer<CChar>?, count: CInt) {
        guard let bytes else {
            self = ""
            return
        }
        let buffer = UnsafeRawBufferPointer(start: bytes, count: count > 0 ? Int(count) : 0)
        self.init(decoding: buffer, as: UTF8.self)
    }
}
