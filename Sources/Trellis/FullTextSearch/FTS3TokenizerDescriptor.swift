/// An FTS3 or FTS4 tokenizer, with its arguments: what "matching" means
/// for a full-text table.
///
/// ```swift
/// try db.create(virtualTable: "book", using: FTS4()) { t in
///     t.tokenizer = .unicode61(diacritics: .keep)
///     t.column("title")
/// }
/// ```
public struct FTS3TokenizerDescriptor: Hashable, Sendable {
    /// The name of the tokenizer: `simple`, `porter`, `unicode61`.
    ///
    /// ```swift
    /// FTS3TokenizerDescriptor.porter.name // "porter"
    /// ```
    public let name: String
    /// The arguments of the tokenizer.
    ///
    /// ```swift
    /// FTS3TokenizerDescriptor.unicode61(diacritics: .keep).arguments // ["remove_diacritics=0"]
    /// ```
    public let arguments: [String]

    init(name: String, arguments: [String] = []) {
        self.name = name
        self.arguments = arguments
    }

    /// The `simple` tokenizer, the default one: case-insensitive for ASCII
    /// letters only, no stemming, diacritics kept.
    ///
    /// ```swift
    /// t.tokenizer = .simple
    /// ```
    public static let simple = FTS3TokenizerDescriptor(name: "simple")

    /// The `porter` tokenizer, which compares English words by their stem:
    /// "frustration" matches "frustrated".
    ///
    /// ```swift
    /// t.tokenizer = .porter
    /// ```
    public static let porter = FTS3TokenizerDescriptor(name: "porter")

    /// The `unicode61` tokenizer: case-insensitive for Unicode letters, no
    /// stemming, diacritics of Latin letters removed unless told
    /// otherwise.
    ///
    /// ```swift
    /// t.tokenizer = .unicode61()
    /// t.tokenizer = .unicode61(diacritics: .keep)
    /// ```
    ///
    /// - parameter diacritics: whether diacritics are removed from tokens.
    /// - parameter separators: characters that separate tokens.
    /// - parameter tokenCharacters: characters that belong to tokens.
    public static func unicode61(
        diacritics: FTS3.Diacritics = .removeLegacy,
        separators: Set<Character> = [],
        tokenCharacters: Set<Character> = []) -> FTS3TokenizerDescriptor
    {
        var arguments: [String] = []
        switch diacritics {
        case .removeLegacy: break
        case .keep: arguments.append("remove_diacritics=0")
        case .remove: arguments.append("remove_diacritics=2")
        }
        // Sorted, so that the SQL does not depend on the order of a set.
        if !separators.isEmpty { arguments.append("separators=" + String(separators.sorted())) }
        if !tokenCharacters.isEmpty { arguments.append("tokenchars=" + String(tokenCharacters.sorted())) }
        return FTS3TokenizerDescriptor(name: "unicode61", arguments: arguments)
    }

    /// `["unicode61", "\"remove_diacritics=0\""]`: the name, then the
    /// arguments as quoted identifiers, as SQLite reads them. The `tokenize`
    /// option of FTS3 and FTS4 separates them with spaces, `fts3tokenize`
    /// with commas.
    var quotedComponents: [String] {
        [name.moduleArgumentIdentifier] + arguments.map(\.quotedDatabaseIdentifier)
    }
}
