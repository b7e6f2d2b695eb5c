import Foundation

/// A JSON array of objects, one row per line. Values go through a
/// `JSONEncoder`: blobs print as base64 by default.
///
/// ```swift
/// try db.dumpSQL("SELECT * FROM player", format: .json())
/// // [{"id":1,"name":"Arthur","score":1000},
/// // {"id":2,"name":"Barbara","score":500}]
/// ```
public struct JSONDumpFormat: DumpFormat {
    /// The encoder of the default format: slashes unescaped, blobs as
    /// base64.
    public static var defaultEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        encoder.dataEncodingStrategy = .base64
        return encoder
    }

    /// The encoder of names and values.
    public var encoder: JSONEncoder
    private var firstRow = true

    /// A format, as ``DumpFormat/json(_:)`` makes.
    public init(encoder: JSONEncoder = JSONDumpFormat.defaultEncoder) {
        self.encoder = encoder
    }

    /// Prints the row as a JSON object.
    ///
    /// - Throws: A ``DatabaseError`` if SQLite fails to read a value of the
    ///   row.
    public mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) throws {
        var line = firstRow ? "[" : ",\n"
        firstRow = false
        let members = try zip(statement.columnNames, statement.dumpedValues).map { name, value in
            try encoded(name) + ":" + json(value)
        }
        line += "{" + members.joined(separator: ",") + "}"
        stream.write(line)
    }

    public mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        stream.write(firstRow ? "[]\n" : "]\n")
        firstRow = true
    }

    private func json(_ value: DatabaseValue) throws -> String {
        switch value.storage {
        case .null: return "null"
        case .int64(let int): return String(int)
        case .double(let double):
            // SQLite stores infinities, which JSON can not print unless
            // the encoder says how.
            if double.isFinite { return try encoded(double) }
            return (try? encoded(double)) ?? "null"
        case .string(let string): return try encoded(string)
        case .blob(let data): return try encoded(data)
        }
    }

    private func encoded(_ value: some Encodable) throws -> String {
        String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

extension DumpFormat where Self == JSONDumpFormat {
    /// A JSON array of objects, one row per line.
    ///
    /// ```swift
    /// let encoder = JSONDumpFormat.defaultEncoder
    /// encoder.dataEncodingStrategy = .custom { data, encoder in ... }
    /// try db.dumpTables(["player"], format: .json(encoder))
    /// ```
    public static func json(_ encoder: JSONEncoder = JSONDumpFormat.defaultEncoder) -> Self {
        JSONDumpFormat(encoder: encoder)
    }
}
