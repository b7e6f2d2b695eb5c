/// English inflection of association keys: singular for to-one
/// associations, plural for to-many ones (`book` → `books`, `person` →
/// `people`, `Orders` → `Orders` and `Order`), with the rules GRDB uses, so
/// that the same associations have the same keys. Only the last word of a
/// camelCase or snake_case name is inflected.
enum Inflections {
    /// A rule: when the lowercased word ends with `suffix` (and, if given,
    /// the character before it passes `before`), drop `drop` characters
    /// and append `append`.
    private struct Rule: Sendable {
        /// A condition on the character before the suffix.
        enum Before: Sendable {
            case consonant
            case notF

            func accepts(_ character: Character) -> Bool {
                switch self {
                case .consonant: !"aeiouy".contains(character)
                case .notF: character != "f"
                }
            }
        }

        var suffix: String
        var drop: Int
        var append: String
        var before: Before?
        var wholeWord = false

        func apply(to word: String, lower: String) -> String? {
            guard lower.hasSuffix(suffix) else { return nil }
            if wholeWord && lower != suffix { return nil }
            if let before {
                let index = lower.index(lower.endIndex, offsetBy: -suffix.count)
                guard index > lower.startIndex, before.accepts(lower[lower.index(before: index)]) else { return nil }
            }
            return String(word.dropLast(drop)) + append
        }
    }

    /// Irregular words, matched at the end of a word (`salesperson` →
    /// `salespeople`): the first letter keeps its case, the rest is
    /// replaced. The first that applies wins (`specimen` is no -man word).
    private static let irregulars: [(singular: String, plural: String)] = [
        ("specimen", "specimens"), ("person", "people"), ("man", "men"), ("child", "children"), ("sex", "sexes"), ("move", "moves"),
        ("zombie", "zombies"), ("foot", "feet"), ("leaf", "leaves"),
    ]

    private static let uncountables: Set<String> = [
        "equipment", "information", "rice", "money", "species", "fish", "sheep", "jeans", "police",
        "advice", "corps", "dice", "kudos", "offspring",
    ]

    // In the rules below, the `drop` last characters of a match are
    // replaced (in lowercase), and the characters before them keep their
    // case: `USERS` → `USERs`, `DATA` → `DATa`, `PERSON` → `People`, as
    // GRDB inflects them.

    /// The plural rules, the first that applies wins.
    private static let pluralRules: [Rule] = {
        var rules: [Rule] = []
        for (singular, plural) in irregulars {
            rules.append(Rule(suffix: singular, drop: singular.count - 1, append: String(plural.dropFirst())))
            rules.append(Rule(suffix: plural, drop: plural.count - 1, append: String(plural.dropFirst())))
        }
        return rules + regularPluralRules
    }()

    private static let regularPluralRules: [Rule] = [
        Rule(suffix: "quiz", drop: 0, append: "zes"),
        Rule(suffix: "oxen", drop: 0, append: "", wholeWord: true),
        Rule(suffix: "ox", drop: 0, append: "en", wholeWord: true),
        Rule(suffix: "mice", drop: 3, append: "ice", wholeWord: true),
        Rule(suffix: "lice", drop: 3, append: "ice", wholeWord: true),
        Rule(suffix: "mouse", drop: 4, append: "ice", wholeWord: true),
        Rule(suffix: "louse", drop: 4, append: "ice", wholeWord: true),
        Rule(suffix: "matrix", drop: 2, append: "ices"),
        Rule(suffix: "vertex", drop: 2, append: "ices"),
        Rule(suffix: "index", drop: 2, append: "ices"),
        Rule(suffix: "x", drop: 0, append: "es"),
        Rule(suffix: "ch", drop: 0, append: "es"),
        Rule(suffix: "ss", drop: 0, append: "es"),
        Rule(suffix: "sh", drop: 0, append: "es"),
        Rule(suffix: "quy", drop: 1, append: "ies"),
        Rule(suffix: "y", drop: 1, append: "ies", before: .consonant),
        Rule(suffix: "hive", drop: 0, append: "s"),
        Rule(suffix: "fe", drop: 2, append: "ves", before: .notF),
        Rule(suffix: "lf", drop: 1, append: "ves"),
        Rule(suffix: "rf", drop: 1, append: "ves"),
        Rule(suffix: "sis", drop: 3, append: "ses"),
        Rule(suffix: "ta", drop: 1, append: "a"),
        Rule(suffix: "ia", drop: 1, append: "a"),
        Rule(suffix: "tum", drop: 2, append: "a"),
        Rule(suffix: "ium", drop: 2, append: "a"),
        Rule(suffix: "buffalo", drop: 1, append: "oes"),
        Rule(suffix: "tomato", drop: 1, append: "oes"),
        Rule(suffix: "hero", drop: 1, append: "oes"),
        Rule(suffix: "bus", drop: 1, append: "ses"),
        Rule(suffix: "alias", drop: 0, append: "es"),
        Rule(suffix: "status", drop: 0, append: "es"),
        Rule(suffix: "gas", drop: 0, append: "es"),
        Rule(suffix: "bias", drop: 0, append: "es"),
        Rule(suffix: "lens", drop: 0, append: "es"),
        Rule(suffix: "focus", drop: 0, append: "es"),
        Rule(suffix: "canvas", drop: 1, append: "ses"),
        Rule(suffix: "octopi", drop: 0, append: ""),
        Rule(suffix: "viri", drop: 0, append: ""),
        Rule(suffix: "octopus", drop: 2, append: "i"),
        Rule(suffix: "virus", drop: 2, append: "i"),
        Rule(suffix: "axis", drop: 2, append: "es", wholeWord: true),
        Rule(suffix: "testis", drop: 2, append: "es", wholeWord: true),
        Rule(suffix: "s", drop: 1, append: "s"),
        Rule(suffix: "", drop: 0, append: "s"),
    ]

    /// The singular rules, the first that applies wins.
    private static let singularRules: [Rule] = {
        var rules: [Rule] = []
        for (singular, plural) in irregulars {
            rules.append(Rule(suffix: plural, drop: plural.count - 1, append: String(singular.dropFirst())))
            rules.append(Rule(suffix: singular, drop: singular.count - 1, append: String(singular.dropFirst())))
        }
        for word in ["gas", "bias", "lens", "focus", "canvas"] {
            rules.append(Rule(suffix: word + "es", drop: 2, append: ""))
            rules.append(Rule(suffix: word, drop: 0, append: ""))
        }
        return rules + regularSingularRules
    }()

    private static let regularSingularRules: [Rule] = [
        Rule(suffix: "databases", drop: 1, append: ""),
        Rule(suffix: "quizzes", drop: 3, append: ""),
        Rule(suffix: "matrices", drop: 4, append: "ix"),
        Rule(suffix: "vertices", drop: 4, append: "ex"),
        Rule(suffix: "indices", drop: 4, append: "ex"),
        Rule(suffix: "oxen", drop: 2, append: "", wholeWord: true),
        Rule(suffix: "aliases", drop: 2, append: ""),
        Rule(suffix: "alias", drop: 0, append: ""),
        Rule(suffix: "statuses", drop: 2, append: ""),
        Rule(suffix: "status", drop: 0, append: ""),
        Rule(suffix: "octopus", drop: 2, append: "us"),
        Rule(suffix: "octopi", drop: 1, append: "us"),
        Rule(suffix: "virus", drop: 2, append: "us"),
        Rule(suffix: "viri", drop: 1, append: "us"),
        Rule(suffix: "axes", drop: 3, append: "xis", wholeWord: true),
        Rule(suffix: "axis", drop: 3, append: "xis", wholeWord: true),
        Rule(suffix: "crises", drop: 2, append: "is"),
        Rule(suffix: "crisis", drop: 2, append: "is"),
        Rule(suffix: "testes", drop: 2, append: "is"),
        Rule(suffix: "testis", drop: 2, append: "is"),
        Rule(suffix: "shoes", drop: 1, append: ""),
        Rule(suffix: "oes", drop: 2, append: ""),
        Rule(suffix: "buses", drop: 2, append: ""),
        Rule(suffix: "bus", drop: 0, append: ""),
        Rule(suffix: "mice", drop: 3, append: "ouse", wholeWord: true),
        Rule(suffix: "lice", drop: 3, append: "ouse", wholeWord: true),
        Rule(suffix: "xes", drop: 2, append: ""),
        Rule(suffix: "ches", drop: 2, append: ""),
        Rule(suffix: "sses", drop: 2, append: ""),
        Rule(suffix: "shes", drop: 2, append: ""),
        Rule(suffix: "movies", drop: 5, append: "ovie"),
        Rule(suffix: "series", drop: 5, append: "eries"),
        Rule(suffix: "quies", drop: 3, append: "y"),
        Rule(suffix: "ies", drop: 3, append: "y", before: .consonant),
        Rule(suffix: "lves", drop: 3, append: "f"),
        Rule(suffix: "rves", drop: 3, append: "f"),
        Rule(suffix: "tives", drop: 1, append: ""),
        Rule(suffix: "hives", drop: 1, append: ""),
        Rule(suffix: "ves", drop: 3, append: "fe", before: .notF),
        Rule(suffix: "analyses", drop: 3, append: "sis"),
        Rule(suffix: "analysis", drop: 3, append: "sis"),
        Rule(suffix: "bases", drop: 3, append: "sis"),
        Rule(suffix: "basis", drop: 3, append: "sis"),
        Rule(suffix: "diagnoses", drop: 3, append: "sis"),
        Rule(suffix: "diagnosis", drop: 3, append: "sis"),
        Rule(suffix: "parentheses", drop: 3, append: "sis"),
        Rule(suffix: "parenthesis", drop: 3, append: "sis"),
        Rule(suffix: "prognoses", drop: 3, append: "sis"),
        Rule(suffix: "prognosis", drop: 3, append: "sis"),
        Rule(suffix: "synopses", drop: 3, append: "sis"),
        Rule(suffix: "synopsis", drop: 3, append: "sis"),
        Rule(suffix: "theses", drop: 3, append: "sis"),
        Rule(suffix: "thesis", drop: 3, append: "sis"),
        Rule(suffix: "ta", drop: 1, append: "um"),
        Rule(suffix: "ia", drop: 1, append: "um"),
        Rule(suffix: "news", drop: 3, append: "ews"),
        Rule(suffix: "ss", drop: 0, append: ""),
        Rule(suffix: "s", drop: 1, append: ""),
    ]

    static func pluralize(_ name: String) -> String {
        inflect(name, with: pluralRules)
    }

    static func singularize(_ name: String) -> String {
        inflect(name, with: singularRules)
    }

    /// Inflects the last word of `name`. Trailing digits stay after it
    /// (`item2` → `items2`); a name whose digits follow no letter
    /// (`user_2`) is left as it is.
    private static func inflect(_ name: String, with rules: [Rule]) -> String {
        let digitCount = name.reversed().prefix { $0.isASCII && $0.isNumber }.count
        guard digitCount > 0 else { return inflectLastWord(name, with: rules) }
        let radical = String(name.dropLast(digitCount))
        guard let last = radical.last, last.isLetter else { return name }
        return inflectLastWord(radical, with: rules) + name.suffix(digitCount)
    }

    /// Inflects the last word: after the last space or underscore, or from
    /// the last uppercase letter of a camelCase name. Uncountable words do
    /// not change.
    private static func inflectLastWord(_ name: String, with rules: [Rule]) -> String {
        let characters = Array(name)
        var start = characters.count
        while start > 0 {
            start -= 1
            let character = characters[start]
            if character == "_" || character == " " { start += 1; break }
            if character.isUppercase && start > 0 && !characters[start - 1].isUppercase
                && characters[start - 1] != " " && characters[start - 1] != "_"
            {
                break
            }
        }
        let prefix = String(characters[..<start])
        let word = String(characters[start...])
        let lower = word.lowercased()
        if uncountables.contains(lower) { return name }
        for rule in rules {
            if let result = rule.apply(to: word, lower: lower) { return prefix + result }
        }
        return name
    }
}
