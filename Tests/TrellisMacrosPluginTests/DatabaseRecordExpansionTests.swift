import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros
import SwiftSyntaxMacrosGenericTestSupport
import Testing
import TrellisMacrosPluginCore

@Suite struct DatabaseRecordExpansionTests {
    let macros: [String: MacroSpec] = [
        "DatabaseRecord": MacroSpec(type: DatabaseRecordMacro.self, conformances: ["_PrefetchedRecordsDecoding"]),
        "Column": MacroSpec(type: ColumnMacro.self),
    ]

    func expect(
        _ source: String, expands expanded: String, diagnostics: [DiagnosticSpec] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        assertMacroExpansion(
            source, expandedSource: expanded, diagnostics: diagnostics, macroSpecs: macros,
            failureHandler: { Issue.record(Comment(rawValue: $0.message), sourceLocation: sourceLocation) })
    }

    @Test func structRecordGetsItsMembersInAnExtension() {
        expect(
            """
            @DatabaseRecord
            struct Player: FetchableRecord, PersistableRecord {
                var id: Int64?
                var name: String
                @Column("player_score") var score: Int
                static let databaseTableName = "players"
                var isGood: Bool { score > 10 }
            }
            """,
            expands: """
            struct Player: FetchableRecord, PersistableRecord {
                var id: Int64?
                var name: String
                var score: Int
                static let databaseTableName = "players"
                var isGood: Bool { score > 10 }
            }

            extension Player {
                enum Columns {
                    static let id = Column("id")
                    static let name = Column("name")
                    static let score = Column("player_score")
                }

                init(row: __shared Row) throws {
                    var reader = RecordRowReader<Self>(row: row, columns: ["id", "name", "player_score"])
                    self.id = try reader.decodeIfPresent(forKey: "id")
                    self.name = try reader.decode(forKey: "name")
                    self.score = try reader.decode(forKey: "player_score")
                }

                func encode(to container: inout PersistenceContainer) throws {
                    let columns = container._recordColumns()
                    try columns.encodeIfPresent(self.id, forKey: "id", of: Self.self)
                    try columns.encode(self.name, forKey: "name", of: Self.self)
                    try columns.encode(self.score, forKey: "player_score", of: Self.self)
                }
            }
            """)
    }

    @Test func fetchOnlyRecordGetsNoEncodingNorColumns() {
        expect(
            """
            @DatabaseRecord
            public struct BookInfo: FetchableRecord {
                public var book: Book
                public var author: Author?
                public var reviews: [Review]
            }
            """,
            expands: """
            public struct BookInfo: FetchableRecord {
                public var book: Book
                public var author: Author?
                public var reviews: [Review]
            }

            extension BookInfo: Trellis._PrefetchedRecordsDecoding {
                public init(row: __shared Row) throws {
                    var reader = RecordRowReader<Self>(row: row, columns: ["book", "author", "reviews"])
                    self.book = try reader.decode(forKey: "book")
                    self.author = try reader.decodeIfPresent(forKey: "author")
                    self.reviews = try reader.decode(forKey: "reviews")
                }

                public static func _prefetchedRecordsDecoder(forKey key: String) -> _PrefetchedRecordsDecoder? {
                    switch key {
                    case "reviews":
                        _PrefetchedRecordsDecoder.make(for: \\Self.reviews)
                    default:
                        nil
                    }
                }
            }
            """)
    }

    @Test func codingKeysNameColumnsAndExcludeProperties() {
        expect(
            """
            @DatabaseRecord
            struct Player: Codable, TableRecord, FetchableRecord {
                var id: Int64
                var fullName: String
                var cache: [String] = []
                let version = 2
                var `default`: Bool
                var a, b: Optional<Int>
                enum CodingKeys: String, CodingKey {
                    case id, fullName = "full_name", version, `default`, a, b
                }
            }
            """,
            expands: """
            struct Player: Codable, TableRecord, FetchableRecord {
                var id: Int64
                var fullName: String
                var cache: [String] = []
                let version = 2
                var `default`: Bool
                var a, b: Optional<Int>
                enum CodingKeys: String, CodingKey {
                    case id, fullName = "full_name", version, `default`, a, b
                }
            }

            extension Player {
                enum Columns {
                    static let id = Column("id")
                    static let fullName = Column("full_name")
                    static let version = Column("version")
                    static let `default` = Column("default")
                    static let a = Column("a")
                    static let b = Column("b")
                }

                init(row: __shared Row) throws {
                    var reader = RecordRowReader<Self>(row: row, columns: ["id", "full_name", "default", "a", "b"])
                    self.id = try reader.decode(forKey: "id")
                    self.fullName = try reader.decode(forKey: "full_name")
                    self.`default` = try reader.decode(forKey: "default")
                    self.a = try reader.decodeIfPresent(forKey: "a")
                    self.b = try reader.decodeIfPresent(forKey: "b")
                }
            }
            """)
    }

    @Test func classRecordGetsItsInitializerInItsBody() {
        expect(
            """
            @DatabaseRecord
            class Player: FetchableRecord, PersistableRecord {
                var id: Int64
                var name: String = ""
            }
            """,
            expands: """
            class Player: FetchableRecord, PersistableRecord {
                var id: Int64
                var name: String = ""

                required init(row: Row) throws {
                    var reader = RecordRowReader<Self>(row: row, columns: ["id", "name"])
                    self.id = try reader.decode(forKey: "id")
                    self.name = try reader.decode(forKey: "name")
                }

                func encode(to container: inout PersistenceContainer) throws {
                    let columns = container._recordColumns()
                    try columns.encode(self.id, forKey: "id", of: Self.self)
                    try columns.encode(self.name, forKey: "name", of: Self.self)
                }
            }

            extension Player {
                enum Columns {
                    static let id = Column("id")
                    static let name = Column("name")
                }
            }
            """)
    }

    @Test func enumIsRefused() {
        expect(
            """
            @DatabaseRecord
            enum Player {
                case a
            }
            """,
            expands: """
            enum Player {
                case a
            }
            """,
            diagnostics: [DiagnosticSpec(message: "@DatabaseRecord applies to a struct or a class", line: 1, column: 1)])
    }

    @Test func columnNameMustBeALiteral() {
        expect(
            """
            @DatabaseRecord
            struct Player: FetchableRecord {
                @Column(name) var score: Int
            }
            """,
            expands: """
            struct Player: FetchableRecord {
                var score: Int
            }
            """,
            diagnostics: [DiagnosticSpec(
                message: "@Column takes the column name as a string literal, such as @Column(\"player_name\")",
                line: 3, column: 5)])
    }

    @Test func twoPropertiesOfOneColumnAreRefused() {
        expect(
            """
            @DatabaseRecord
            struct Player: FetchableRecord {
                var name: String
                @Column("NAME") var otherName: String
            }
            """,
            expands: """
            struct Player: FetchableRecord {
                var name: String
                var otherName: String
            }
            """,
            diagnostics: [DiagnosticSpec(
                message: "properties 'name' and 'otherName' both use the column 'NAME' (column names ignore case)",
                line: 4, column: 25)])
    }

    @Test func excludedPropertyNeedsADefaultValue() {
        expect(
            """
            @DatabaseRecord
            struct Player: FetchableRecord {
                var id: Int64
                var score: Int
                enum CodingKeys: CodingKey {
                    case id
                }
            }
            """,
            expands: """
            struct Player: FetchableRecord {
                var id: Int64
                var score: Int
                enum CodingKeys: CodingKey {
                    case id
                }
            }
            """,
            diagnostics: [DiagnosticSpec(
                message: "property 'score' is not in CodingKeys, so it is not read from the database: give it a default value",
                line: 4, column: 9)])
    }

    @Test func propertyWrappersAreRefused() {
        expect(
            """
            @DatabaseRecord
            struct Player: FetchableRecord {
                @Wrapped var score: Int
            }
            """,
            expands: """
            struct Player: FetchableRecord {
                @Wrapped var score: Int
            }
            """,
            diagnostics: [DiagnosticSpec(
                message: "property 'score' has the wrapper @Wrapped, which a record can not read or write: store its wrapped value in a plain property",
                line: 3, column: 5)])
    }

    @Test func columnStrategiesAreRefused() {
        expect(
            """
            @DatabaseRecord
            struct Player: FetchableRecord {
                var playerName: String
                static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
            }
            """,
            expands: """
            struct Player: FetchableRecord {
                var playerName: String
                static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
            }
            """,
            diagnostics: [DiagnosticSpec(
                message: "the record macros name columns at compile time, so 'databaseColumnDecodingStrategy' would be ignored: name the columns with CodingKeys or @Column(\"...\") instead",
                line: 4, column: 16)])
    }
}
