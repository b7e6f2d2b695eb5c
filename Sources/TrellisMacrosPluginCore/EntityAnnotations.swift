import SwiftSyntax

/// The annotations of ObjectBox's code generator in the comments of a
/// property: `// objectbox: backlink = "customer"`, `// objectbox: index`,
/// or the same after `sourcery:`, the generator ObjectBox's is built on.
struct EntityAnnotations {
    /// The value of each annotation, nil for an annotation without one.
    private var values: [String: String?] = [:]

    /// The annotations of the comments before a declaration and after it
    /// on its line.
    init(of declaration: some SyntaxProtocol) {
        for piece in Array(declaration.leadingTrivia) + Array(declaration.trailingTrivia) {
            switch piece {
            case .lineComment(let text), .docLineComment(let text), .blockComment(let text), .docBlockComment(let text):
                read(comment: text)
            default:
                continue
            }
        }
    }

    /// Whether the annotation is present, with or without a value.
    func contains(_ name: String) -> Bool {
        values[name] != nil
    }

    /// The value of an annotation (`backlink = "customer"`).
    func value(of name: String) -> String? {
        values[name] ?? nil
    }

    private mutating func read(comment: String) {
        var text = Substring(comment)
        for marker in ["/**", "/*", "*/", "///", "//"] {
            if text.hasPrefix(marker) { text = text.dropFirst(marker.count) }
            if text.hasSuffix(marker) { text = text.dropLast(marker.count) }
        }
        text = text.drop { $0 == " " || $0 == "\t" }
        for prefix in ["objectbox:", "sourcery:"] where text.hasPrefix(prefix) {
            for entry in Self.topLevelEntries(text.dropFirst(prefix.count)) {
                let parts = entry.split(separator: "=", maxSplits: 1)
                guard let first = parts.first else { continue }
                let name = first.trimmingCharacters(in: " \t")
                guard !name.isEmpty else { continue }
                var value: String?
                if parts.count > 1 {
                    let text = parts[1].trimmingCharacters(in: " \t")
                    // A value in braces keeps its quotes: `options(of:)` reads it.
                    value = text.hasPrefix("{") ? text : Substring(text).trimmingCharacters(in: "\"")
                }
                values[name] = .some(value)
            }
        }
    }

    /// The options of an annotation whose value is written in braces, as
    /// ObjectBox writes them: `convert = { "dbType": "Int", "default": ".unknown" }`
    /// gives `["dbType": "Int", "default": ".unknown"]`.
    func options(of name: String) -> [String: String] {
        guard let value = value(of: name), value.hasPrefix("{") else { return [:] }
        var text = Substring(value).dropFirst()
        if text.hasSuffix("}") { text = text.dropLast() }
        var options: [String: String] = [:]
        for entry in Self.topLevelEntries(text) {
            let parts = entry.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let key = parts[0].trimmingCharacters(in: " \t\"")
            let value = Substring(parts[1].trimmingCharacters(in: " \t")).trimmingCharacters(in: "\"")
            if !key.isEmpty { options[key] = value }
        }
        return options
    }

    /// The parts of `text` between the commas that are outside braces and
    /// quotes.
    private static func topLevelEntries(_ text: Substring) -> [Substring] {
        var entries: [Substring] = []
        var depth = 0
        var inQuotes = false
        var start = text.startIndex
        for index in text.indices {
            switch text[index] {
            case "\"": inQuotes.toggle()
            case "{" where !inQuotes: depth += 1
            case "}" where !inQuotes: depth = max(0, depth - 1)
            case "," where !inQuotes && depth == 0:
                entries.append(text[start..<index])
                start = text.index(after: index)
            default: break
            }
        }
        entries.append(text[start...])
        return entries
    }
}

extension Substring {
    func trimmingCharacters(in characters: String) -> String {
        String(drop { characters.contains($0) }.reversed().drop { characters.contains($0) }.reversed())
    }
}
