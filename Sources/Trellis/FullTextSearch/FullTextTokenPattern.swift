/// The patterns that `FTS3Pattern` and `FTS5Pattern` build from any string:
/// its tokens, cut and lowercased as SQLite's `simple` tokenizer does,
/// joined so that the pattern is always valid.
enum FullTextTokenPattern {
    /// `sqlite OR database`
    case anyToken
    /// `sqlite database`
    case allTokens
    /// `sqlite* database*`
    case allPrefixes
    /// `"sqlite database"`
    case phrase
    /// `^"sqlite database"` (FTS5 only)
    case prefixPhrase

    /// The raw pattern for `string`, or nil when it has no token.
    func rawPattern(for string: String) -> String? {
        let tokens = Self.tokens(in: string)
        if tokens.isEmpty { return nil }
        switch self {
        case .anyToken: return tokens.joined(separator: " OR ")
        case .allTokens: return tokens.joined(separator: " ")
        case .allPrefixes: return tokens.map { $0 + "*" }.joined(separator: " ")
        case .phrase: return "\"" + tokens.joined(separator: " ") + "\""
        case .prefixPhrase: return "^\"" + tokens.joined(separator: " ") + "\""
        }
    }

    /// The tokens of the `simple` tokenizer: runs of ASCII letters and
    /// digits and of non-ASCII characters, with ASCII letters lowercased.
    /// Every other ASCII character separates tokens, so that no token
    /// holds an operator (`"`, `*`, `^`, `:`, parentheses) and no token is
    /// a keyword (`AND`, `OR`, `NOT`, `NEAR` are uppercase).
    static func tokens(in string: String) -> [String] {
        var tokens: [String] = []
        var token = String.UnicodeScalarView()
        for scalar in string.unicodeScalars {
            if scalar.value >= 0x80 {
                token.append(scalar)
            } else if let lowercased = Self.lowercasedTokenCharacter(scalar) {
                token.append(lowercased)
            } else if !token.isEmpty {
                tokens.append(String(token))
                token = String.UnicodeScalarView()
            }
        }
        if !token.isEmpty { tokens.append(String(token)) }
        return tokens
    }

    private static func lowercasedTokenCharacter(_ scalar: Unicode.Scalar) -> Unicode.Scalar? {
        switch scalar {
        case "a"..."z", "0"..."9": return scalar
        case "A"..."Z": return Unicode.Scalar(scalar.value + 32)
        default: return nil
        }
    }
}
