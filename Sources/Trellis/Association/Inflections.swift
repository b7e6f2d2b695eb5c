/// English inflection of association keys: singular for to-one
/// associations, plural for to-many ones (`book` → `books`, `person` →
/// `people`). Only the last word of a camelCase name is inflected.
enum Inflections {
    private static let irregulars: [(singular: String, plural: String)] = [
        ("person", "people"), ("man", "men"), ("woman", "women"), ("child", "children"), ("ox", "oxen"),
        ("mouse", "mice"), ("goose", "geese"), ("tooth", "teeth"), ("foot", "feet"), ("leaf", "leaves"),
        ("life", "lives"), ("knife", "knives"), ("wife", "wives"), ("half", "halves"), ("datum", "data"),
        ("index", "indices"), ("matrix", "matrices"), ("vertex", "vertices"), ("criterion", "criteria"),
        ("analysis", "analyses"), ("crisis", "crises"), ("thesis", "theses"), ("quiz", "quizzes"),
        ("movie", "movies"), ("cookie", "cookies"),
    ]

    private static let uncountables: Set<String> = [
        "equipment", "information", "rice", "money", "species", "series", "fish", "sheep", "deer",
        "news", "metadata", "police", "jeans", "aircraft",
    ]

    static func pluralize(_ name: String) -> String {
        inflectLastWord(name) { word in
            let lower = word.lowercased()
            if uncountables.contains(lower) { return word }
            if let match = irregulars.first(where: { $0.singular == lower }) { return preservingCase(word, match.plural) }
            if irregulars.contains(where: { $0.plural == lower }) { return word }
            if lower.hasSuffix("y"), let before = lower.dropLast().last, !"aeiou".contains(before) {
                return String(word.dropLast()) + "ies"
            }
            for suffix in ["s", "x", "z", "ch", "sh"] where lower.hasSuffix(suffix) {
                if suffix == "s" && (lower.hasSuffix("ics") || lower.hasSuffix("ies")) { return word }
                return word + "es"
            }
            return word + "s"
        }
    }

    static func singularize(_ name: String) -> String {
        inflectLastWord(name) { word in
            let lower = word.lowercased()
            if uncountables.contains(lower) { return word }
            if let match = irregulars.first(where: { $0.plural == lower }) { return preservingCase(word, match.singular) }
            if irregulars.contains(where: { $0.singular == lower }) { return word }
            if lower.hasSuffix("ies") && lower.count > 3 { return String(word.dropLast(3)) + "y" }
            for suffix in ["sses", "xes", "zes", "ches", "shes"] where lower.hasSuffix(suffix) {
                return String(word.dropLast(2))
            }
            if lower.hasSuffix("ss") || lower.hasSuffix("us") || lower.hasSuffix("is") { return word }
            if lower.hasSuffix("s") { return String(word.dropLast()) }
            return word
        }
    }

    private static func preservingCase(_ original: String, _ replacement: String) -> String {
        guard let first = original.first, first.isUppercase else { return replacement }
        return replacement.prefix(1).uppercased() + replacement.dropFirst()
    }

    private static func inflectLastWord(_ name: String, _ inflect: (String) -> String) -> String {
        let characters = Array(name)
        var start = characters.count
        while start > 0 {
            start -= 1
            let character = characters[start]
            if character == "_" { start += 1; break }
            if character.isUppercase && start > 0 && !characters[start - 1].isUppercase { break }
        }
        let prefix = String(characters[..<start])
        let word = String(characters[start...])
        return word.isEmpty ? name : prefix + inflect(word)
    }
}
