/// The words and punctuation of an SQL statement, without its names,
/// strings and comments: what tells the options of a `CREATE TABLE`
/// statement, whatever its names and comments hold.
///
/// ```swift
/// SQLCode("CREATE TABLE \"a USING b\"(x) /* (v1) */ WITHOUT ROWID").keywords
/// // ["CREATE", "TABLE", "(", "X", ")", "WITHOUT", "ROWID"]
/// ```
struct SQLCode {
    /// Upper-cased words, and each punctuation character on its own.
    let keywords: [String]

    init(_ sql: String) {
        var keywords: [String] = []
        var word = ""
        var characters = Array(sql)[...]
        func endWord() {
            if !word.isEmpty { keywords.append(word.uppercased()) }
            word = ""
        }
        while let character = characters.popFirst() {
            switch character {
            case "'", "\"", "`", "[":
                // A string or a quoted name: skipped to its closing quote
                // (doubled quotes stay inside).
                endWord()
                let close: Character = character == "[" ? "]" : character
                while let next = characters.popFirst() {
                    if next == close {
                        if close != "]", characters.first == close { characters.removeFirst() } else { break }
                    }
                }
            case "-" where characters.first == "-":
                endWord()
                while let next = characters.popFirst(), next != "\n" {}
            case "/" where characters.first == "*":
                endWord()
                characters.removeFirst()
                while let next = characters.popFirst() {
                    if next == "*", characters.first == "/" {
                        characters.removeFirst()
                        break
                    }
                }
            case _ where Self.isWordCharacter(character):
                word.append(character)
            case _ where character.isWhitespace:
                endWord()
            default:
                endWord()
                keywords.append(String(character))
            }
        }
        endWord()
        self.keywords = keywords
    }

    /// Whether the character belongs to a word. ASCII, the common case,
    /// is told without the Unicode tables, which made reading the
    /// statements of thousands of tables slow.
    private static func isWordCharacter(_ character: Character) -> Bool {
        if let ascii = character.asciiValue {
            return (ascii >= 0x61 && ascii <= 0x7A) || (ascii >= 0x41 && ascii <= 0x5A) || (ascii >= 0x30 && ascii <= 0x39)
                || ascii == 0x5F || ascii == 0x24
        }
        return character.isLetter || character.isNumber
    }
}
