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

    private static let irregulars: [(singular: String, plural: String)] = [
        ("person", "people"), ("man", "men"), ("woman", "women"), ("child", "children"), ("sex", "sexes"), ("move", "moves"),
        ("zombie", "zombies"), ("foot", "feet"), ("gas", "gases"), ("canvas", "canvases"), ("bias", "biases"),
        ("lens", "lenses"), ("focus", "focuses"), ("syllabus", "syllabuses"),
    ]

    private static let uncountables: Set<String> = [
        "equipment", "information", "rice", "money", "species", "series", "fish", "sheep", "jeans", "police",
    ]

    /// The plural rules, the first that applies wins.
    private static let pluralRules: [Rule] = [
        Rule(suffix: "quiz", drop: 0, append: "zes"),
        Rule(suffix: "oxen", drop: 0, append: "", wholeWord: true),
        Rule(suffix: "ox", drop: 0, append: "en", wholeWord: true),
        Rule(suffix: "mice", drop: 0, append: "", wholeWord: true),
        Rule(suffix: "lice", drop: 0, append: "", wholeWord: true),
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
        Rule(suffix: "eaf", drop: 1, append: "ves"),
        Rule(suffix: "sis", drop: 2, append: "es"),
        Rule(suffix: "ta", drop: 0, append: ""),
        Rule(suffix: "ia", drop: 0, append: ""),
        Rule(suffix: "tum", drop: 2, append: "a"),
        Rule(suffix: "ium", drop: 2, append: "a"),
        Rule(suffix: "buffalo", drop: 0, append: "es"),
        Rule(suffix: "tomato", drop: 0, append: "es"),
        Rule(suffix: "hero", drop: 0, append: "es"),
        Rule(suffix: "bus", drop: 0, append: "es"),
        Rule(suffix: "alias", drop: 0, append: "es"),
        Rule(suffix: "status", drop: 0, append: "es"),
        Rule(suffix: "octopi", drop: 0, append: ""),
        Rule(suffix: "viri", drop: 0, append: ""),
        Rule(suffix: "octopus", drop: 2, append: "i"),
        Rule(suffix: "virus", drop: 2, append: "i"),
        Rule(suffix: "axis", drop: 2, append: "es", wholeWord: true),
        Rule(suffix: "testis", drop: 2, append: "es", wholeWord: true),
        Rule(suffix: "s", drop: 0, append: ""),
        Rule(suffix: "", drop: 0, append: "s"),
    ]

    /// The singular rules, the first that applies wins.
    private static let singularRules: [Rule] = [
        Rule(suffix: "databases", drop: 1, append: ""),
        Rule(suffix: "quizzes", drop: 3, append: ""),
        Rule(suffix: "matrices", drop: 4, append: "x"),
        Rule(suffix: "vertices", drop: 4, append: "ex"),
        Rule(suffix: "indices", drop: 4, append: "ex"),
        Rule(suffix: "oxen", drop: 2, append: "", wholeWord: true),
        Rule(suffix: "aliases", drop: 2, append: ""),
        Rule(suffix: "alias", drop: 0, append: ""),
        Rule(suffix: "statuses", drop: 2, append: ""),
        Rule(suffix: "status", drop: 0, append: ""),
        Rule(suffix: "octopus", drop: 0, append: ""),
        Rule(suffix: "octopi", drop: 1, append: "us"),
        Rule(suffix: "virus", drop: 0, append: ""),
        Rule(suffix: "viri", drop: 1, append: "us"),
        Rule(suffix: "axes", drop: 2, append: "is", wholeWord: true),
        Rule(suffix: "axis", drop: 0, append: "", wholeWord: true),
        Rule(suffix: "crises", drop: 2, append: "is"),
        Rule(suffix: "crisis", drop: 0, append: ""),
        Rule(suffix: "testes", drop: 2, append: "is"),
        Rule(suffix: "testis", drop: 0, append: ""),
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
        Rule(suffix: "movies", drop: 1, append: ""),
        Rule(suffix: "series", drop: 0, append: ""),
        Rule(suffix: "quies", drop: 3, append: "y"),
        Rule(suffix: "ies", drop: 3, append: "y", before: .consonant),
        Rule(suffix: "lves", drop: 3, append: "f"),
        Rule(suffix: "rves", drop: 3, append: "f"),
        Rule(suffix: "eaves", drop: 3, append: "f"),
        Rule(suffix: "tives", drop: 1, append: ""),
        Rule(suffix: "hives", drop: 1, append: ""),
        Rule(suffix: "ves", drop: 3, append: "fe", before: .notF),
        Rule(suffix: "analyses", drop: 2, append: "is"),
        Rule(suffix: "bases", drop: 2, append: "is"),
        Rule(suffix: "diagnoses", drop: 2, append: "is"),
        Rule(suffix: "parentheses", drop: 2, append: "is"),
        Rule(suffix: "prognoses", drop: 2, append: "is"),
        Rule(suffix: "synopses", drop: 2, append: "is"),
        Rule(suffix: "theses", drop: 2, append: "is"),
        Rule(suffix: "sis", drop: 0, append: ""),
        Rule(suffix: "ta", drop: 1, append: "um"),
        Rule(suffix: "ia", drop: 1, append: "um"),
        Rule(suffix: "news", drop: 0, append: ""),
        Rule(suffix: "ss", drop: 0, append: ""),
        Rule(suffix: "s", drop: 1, append: ""),
    ]

    static func pluralize(_ name: String) -> String {
        inflectLastWord(name) { word in
            let lower = word.lowercased()
            if uncountables.contains(lower) { return word }
            if let match = irregulars.first(where: { $0.singular == lower }) { return preservingCase(word, match.plural) }
            if irregulars.contains(where: { $0.plural == lower }) { return word }
            for rule in pluralRules {
                if let result = rule.apply(to: word, lower: lower) { return result }
            }
            return word
        }
    }

    static func singularize(_ name: String) -> String {
        inflectLastWord(name) { word in
            let lower = word.lowercased()
            if uncountables.contains(lower) { return word }
            if let match = irregulars.first(where: { $0.plural == lower }) { return preservingCase(word, match.singular) }
            if irregulars.contains(where: { $0.singular == lower }) { return word }
            for rule in singularRules {
                if let result = rule.apply(to: word, lower: lower) { return result }
            }
            return word
        }
    }

    private static func preservingCase(_ original: String, _ replacement: String) -> String {
        guard let first = original.first, first.isUppercase else { return replacement }
        return replacement.prefix(1).uppercased() + replacement.dropFirst()
    }

    /// Inflects the last word: after the last space or underscore, or from
    /// the last uppercase letter of a camelCase name.
    private static func inflectLastWord(_ name: String, _ inflect: (String) -> String) -> String {
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
        return word.isEmpty ? name : prefix + inflect(word)
    }
}
