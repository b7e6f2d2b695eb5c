/// An FTS5 tokenizer, with its arguments: what "matching" means for a
/// full-text table.
///
/// ```swift
/// try db.create(virtualTable: "book", using: FTS5()) { t in
///     t.tokenizer = .porter(wrapping: .unicode61(diacritics: .keep))
///     t.column("title")
/// }
/// ```
public struct FTS5TokenizerDescriptor: Hashable, Sendable {
    /// The name of the tokenizer followed by its arguments.
    ///
    /// ```swift
    /// FTS5TokenizerDescriptor.porter(wrapping: .ascii()).components // ["porter", "ascii"]
    /// ```
    public let components: [String]

    /// A tokenizer from its name and arguments.
    ///
    /// ```swift
    /// // tokenize='trigram case_sensitive 1'
    /// t.tokenizer = FTS5TokenizerDescriptor(components: ["trigram", "case_sensitive", "1"])
    /// ```
    public init(components: [String]) {
        self.components = components
    }

    /// The `ascii` tokenizer: case-insensitive for ASCII letters only, no
    /// stemming, diacritics kept.
    ///
    /// ```swift
    /// t.tokenizer = .ascii()
    /// t.tokenizer = .ascii(separators: ["_"], tokenCharacters: ["-"])
    /// ```
    ///
    /// - parameter separators: characters that separate tokens.
    /// - parameter tokenCharacters: characters that belong to tokens.
    public static func ascii(separators: Set<Character> = [], tokenCharacters: Set<Character> = []) -> FTS5TokenizerDescriptor {
        FTS5TokenizerDescriptor(components: ["ascii"]
            + characterArgument("separators", separators)
            + characterArgument("tokenchars", tokenCharacters))
    }

    /// The `porter` tokenizer, which compares English words by their stem
    /// ("frustration" matches "frustrated"), wrapping another tokenizer
    /// (`unicode61` by default).
    ///
    /// ```swift
    /// t.tokenizer = .porter()                   // porter wrapping unicode61
    /// t.tokenizer = .porter(wrapping: .ascii()) // porter wrapping ascii
    /// ```
    public static func porter(wrapping base: FTS5TokenizerDescriptor? = nil) -> FTS5TokenizerDescriptor {
        FTS5TokenizerDescriptor(components: ["porter"] + (base?.components ?? []))
    }

    /// The `porter` tokenizer wrapping `base`, as GRDB's full-text search
    /// guide spells it.
    ///
    /// ```swift
    /// t.tokenizer = .porter(.unicode61(diacritics: .keep))
    /// ```
    public static func porter(_ base: FTS5TokenizerDescriptor) -> FTS5TokenizerDescriptor {
        porter(wrapping: base)
    }

    /// The `unicode61` tokenizer, the default one: case-insensitive for
    /// Unicode letters, no stemming, diacritics of Latin letters removed
    /// unless told otherwise.
    ///
    /// ```swift
    /// t.tokenizer = .unicode61()
    /// t.tokenizer = .unicode61(diacritics: .keep)
    /// t.tokenizer = .unicode61(categories: "L* N* Co")
    /// ```
    ///
    /// - parameter diacritics: whether diacritics are removed from tokens.
    /// - parameter categories: the Unicode categories of token characters.
    /// - parameter separators: characters that separate tokens.
    /// - parameter tokenCharacters: characters that belong to tokens.
    public static func unicode61(
        diacritics: FTS5.Diacritics = .removeLegacy,
        categories: String = "",
        separators: Set<Character> = [],
        tokenCharacters: Set<Character> = []) -> FTS5TokenizerDescriptor
    {
        var components = ["unicode61"]
        switch diacritics {
        case .removeLegacy: break
        case .keep: components += ["remove_diacritics", "0"]
        case .remove: components += ["remove_diacritics", "2"]
        }
        if !categories.isEmpty { components += ["categories", categories] }
        components += characterArgument("separators", separators)
        components += characterArgument("tokenchars", tokenCharacters)
        return FTS5TokenizerDescriptor(components: components)
    }

    /// `["separators", "-_"]`, with sorted characters so that the SQL does
    /// not depend on the order of a set.
    private static func characterArgument(_ name: String, _ characters: Set<Character>) -> [String] {
        characters.isEmpty ? [] : [name, String(characters.sorted())]
    }

    /// The `tokenize` option: the components quoted as SQL strings, joined
    /// and quoted again, as FTS5 reads them.
    var moduleArgument: String {
        "tokenize=" + components.map(\.sqlQuotedLiteral).joined(separator: " ").sqlQuotedLiteral
    }
}
