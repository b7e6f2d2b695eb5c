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
            for entry in text.dropFirst(prefix.count).split(separator: ",") {
                let parts = entry.split(separator: "=", maxSplits: 1)
                let name = parts[0].trimmingCharacters(in: " \t")
                guard !name.isEmpty else { continue }
                let value = parts.count > 1 ? parts[1].trimmingCharacters(in: " \t\"") : nil
                values[name] = .some(value)
            }
        }
    }
}

extension Substring {
    func trimmingCharacters(in characters: String) -> String {
        String(drop { characters.contains($0) }.reversed().drop { characters.contains($0) }.reversed())
    }
}
