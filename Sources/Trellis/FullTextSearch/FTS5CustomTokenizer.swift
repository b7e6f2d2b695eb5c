/// A tokenizer of your own, which FTS5 tables use once it is registered
/// with ``Database/add(tokenizer:)``. It implements SQLite's raw
/// `xTokenize` function; ``FTS5WrapperTokenizer`` spares you the bytes.
///
/// ```swift
/// final class MyTokenizer: FTS5CustomTokenizer {
///     static let name = "custom"
///     init(db: Database, arguments: [String]) throws { ... }
///     func tokenize(context: UnsafeMutableRawPointer?, tokenization: FTS5Tokenization,
///                   pText: UnsafePointer<CChar>?, nText: CInt,
///                   tokenCallback: @escaping FTS5TokenCallback) -> CInt { ... }
/// }
///
/// var config = Configuration()
/// config.prepareDatabase { db in db.add(tokenizer: MyTokenizer.self) }
/// ```
public protocol FTS5CustomTokenizer: FTS5Tokenizer {
    /// The name of the tokenizer, as tables name it: not one of SQLite's
    /// (`ascii`, `porter`, `unicode61`, `trigram`).
    static var name: String { get }

    /// Makes a tokenizer for a table, with the arguments that follow the
    /// name in its `tokenize` option (`tokenize='custom arg1 arg2'` gives
    /// `["arg1", "arg2"]`). An error makes the statement that needed the
    /// tokenizer fail.
    ///
    /// - Throws: Any error, for arguments the tokenizer does not accept: the
    ///   statement that needed the tokenizer then fails.
    init(db: Database, arguments: [String]) throws
}

extension FTS5CustomTokenizer {
    /// The descriptor of the tokenizer, for the tables that use it.
    ///
    /// ```swift
    /// try db.create(virtualTable: "document", using: FTS5()) { t in
    ///     t.tokenizer = MyTokenizer.tokenizerDescriptor(arguments: ["arg1"])
    ///     t.column("content")
    /// }
    /// ```
    public static func tokenizerDescriptor(arguments: [String] = []) -> FTS5TokenizerDescriptor {
        FTS5TokenizerDescriptor(components: [name] + arguments)
    }
}
