import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros
import SwiftSyntaxMacrosGenericTestSupport
import Testing
import TrellisMacrosPluginCore

@Suite struct EntityExpansionTests {
    let macros: [String: MacroSpec] = [
        "Entity": MacroSpec(type: EntityMacro.self, conformances: ["EntityBinding", "_EntityReadLoops"]),
    ]

    func expect(
        _ source: String, expands expanded: String, diagnostics: [DiagnosticSpec] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        assertMacroExpansion(
            source, expandedSource: expanded, diagnostics: diagnostics, macroSpecs: macros,
            failureHandler: { Issue.record(Comment(rawValue: $0.message), sourceLocation: sourceLocation) })
    }

    @Test func finalClassGetsItsBindingAndTypedProperties() {
        expect(
            """
            @Entity
            final class Person {
                var id: Id = 0
                var name = ""
                var age = -1
                var score = 0.5
                var active = true
                var nickname: String?
                var spouse: ToOne<Person> = nil
                var isAdult: Bool { age >= 18 }
            }
            """,
            expands: """
            final class Person {
                @exclusivity(unchecked)
                var id: Id = 0
                @exclusivity(unchecked)
                var name = ""
                @exclusivity(unchecked)
                var age = -1
                @exclusivity(unchecked)
                var score = 0.5
                @exclusivity(unchecked)
                var active = true
                @exclusivity(unchecked)
                var nickname: String?
                @exclusivity(unchecked)
                var spouse: ToOne<Person> = nil
                var isAdult: Bool { age >= 18 }

                static let id = TrellisObjects.Property<Person, Id>("id")

                static let name = TrellisObjects.Property<Person, String>("name")

                static let age = TrellisObjects.Property<Person, Int>("age")

                static let score = TrellisObjects.Property<Person, Double>("score")

                static let active = TrellisObjects.Property<Person, Bool>("active")

                static let nickname = TrellisObjects.Property<Person, String?>("nickname")

                static let spouse = TrellisObjects.Property<Person, ToOne<Person>>("spouse")

                convenience init(reading reader: TrellisObjects.EntityReader) throws {
                    self.init()
                    self.id = try reader.read("id")
                    self.name = try reader.read("name")
                    self.age = try reader.read("age")
                    self.score = try reader.read("score")
                    self.active = try reader.read("active")
                    self.nickname = try reader.readIfPresent("nickname")
                    if try !(isKnownUniquelyReferenced(&self.spouse) && reader.readRelation("spouse", into: Unmanaged.passUnretained(self.spouse))) {
                        self.spouse = try reader.readRelation("spouse")
                    }
                }
            }

            extension Person: TrellisObjects.EntityBinding, TrellisObjects._EntityReadLoops {
                func write(to writer: TrellisObjects.EntityWriter) throws {
                    try writer.write(self.id, to: "id")
                    try writer.write(self.name, to: "name")
                    try writer.write(self.age, to: "age")
                    try writer.write(self.score, to: "score")
                    try writer.write(self.active, to: "active")
                    try writer.writeIfPresent(self.nickname, to: "nickname")
                    try writer.writeRelation(self.spouse, to: "spouse")
                }

                var entityId: TrellisObjects.Id {
                    get {
                        self.id
                    }
                    set {
                        self.id = newValue
                    }
                }
            }
            """)
    }

    @Test func publicStructGetsItsInitializerInTheExtension() {
        expect(
            """
            @Entity
            public struct Author {
                public var id: Id
                public var name: String
                let kind = "author"
            }
            """,
            expands: """
            public struct Author {
                public var id: Id
                public var name: String
                let kind = "author"

                public static let id = TrellisObjects.Property<Author, Id>("id")

                public static let name = TrellisObjects.Property<Author, String>("name")

                public static let kind = TrellisObjects.Property<Author, String>("kind")
            }

            extension Author: TrellisObjects.EntityBinding, TrellisObjects._EntityReadLoops {
                public init(reading reader: TrellisObjects.EntityReader) throws {
                    self.id = try reader.read("id")
                    self.name = try reader.read("name")
                }

                public func write(to writer: TrellisObjects.EntityWriter) throws {
                    try writer.write(self.id, to: "id")
                    try writer.write(self.name, to: "name")
                    try writer.write(self.kind, to: "kind")
                }

                public var entityId: TrellisObjects.Id {
                    get {
                        self.id
                    }
                    set {
                        self.id = newValue
                    }
                }
            }
            """)
    }

    @Test func classThatSaysEntityWithATypedIdAndARelationList() {
        expect(
            """
            @Entity
            class Customer: Entity {
                var id: EntityId<Customer> = 0
                // sourcery: backlink = "customer"
                var orders: ToMany<Order> = nil
                var shops: ToMany<Shop> = nil  // objectbox: backlink = "customers"
                required init() {}
            }
            """,
            expands: """
            class Customer: Entity {
                @exclusivity(unchecked)
                var id: EntityId<Customer> = 0
                @exclusivity(unchecked)
                // sourcery: backlink = "customer"
                var orders: ToMany<Order> = nil
                @exclusivity(unchecked)
                var shops: ToMany<Shop> = nil  // objectbox: backlink = "customers"
                required init() {}

                static let id = TrellisObjects.Property<Customer, EntityId<Customer>>("id")

                static let orders = TrellisObjects.Property<Customer, ToMany<Order>>("orders")

                static let shops = TrellisObjects.Property<Customer, ToMany<Shop>>("shops")

                static var backlinks: [String: String] {
                    ["orders": "customer", "shops": "customers"]
                }

                required convenience init(reading reader: TrellisObjects.EntityReader) throws {
                    self.init()
                    self.id = try reader.read("id")
                    self.orders = try reader.readRelation("orders")
                    self.shops = try reader.readRelation("shops")
                }
            }

            extension Customer: TrellisObjects.EntityBinding {
                func write(to writer: TrellisObjects.EntityWriter) throws {
                    try writer.write(self.id, to: "id")
                    try writer.writeRelation(self.orders, to: "orders")
                    try writer.writeRelation(self.shops, to: "shops")
                }

                var entityId: TrellisObjects.Id {
                    get {
                        self.id.value
                    }
                    set {
                        self.id = .init(newValue)
                    }
                }
            }
            """)
    }

    @Test func annotationsNameTheIdIndexAndLeaveOutProperties() {
        expect(
            """
            @Entity
            final class Member {
                var email = ""  // objectbox: unique
                // objectbox: index
                var city = ""
                // objectbox: id
                var key: Int64 = 0
                /// The name, in the column of an older version.
                // objectbox: name = "full_name"
                var name = ""
                // objectbox: transient
                var cache: [String: Int] = [:]
            }
            """,
            expands: """
            final class Member {
                @exclusivity(unchecked)
                var email = ""  // objectbox: unique
                @exclusivity(unchecked)
                // objectbox: index
                var city = ""
                @exclusivity(unchecked)
                // objectbox: id
                var key: Int64 = 0
                @exclusivity(unchecked)
                /// The name, in the column of an older version.
                // objectbox: name = "full_name"
                var name = ""
                @exclusivity(unchecked)
                // objectbox: transient
                var cache: [String: Int] = [:]

                static let email = TrellisObjects.Property<Member, String>("email")

                static let city = TrellisObjects.Property<Member, String>("city")

                static let key = TrellisObjects.Property<Member, Int64>("id")

                static let name = TrellisObjects.Property<Member, String>("full_name")

                static var idPropertyName: String {
                    "key"
                }

                static var indexedProperties: [String] {
                    ["city"]
                }

                static var uniqueProperties: [String] {
                    ["email"]
                }

                convenience init(reading reader: TrellisObjects.EntityReader) throws {
                    self.init()
                    self.email = try reader.read("email")
                    self.city = try reader.read("city")
                    self.key = try reader.read("id")
                    self.name = try reader.read("full_name")
                }
            }

            extension Member: TrellisObjects.EntityBinding, TrellisObjects._EntityReadLoops {
                func write(to writer: TrellisObjects.EntityWriter) throws {
                    try writer.write(self.email, to: "email")
                    try writer.write(self.city, to: "city")
                    try writer.write(self.key, to: "id")
                    try writer.write(self.name, to: "full_name")
                }

                var entityId: TrellisObjects.Id {
                    get {
                        TrellisObjects.Id(bitPattern: self.key)
                    }
                    set {
                        self.key = Int64(bitPattern: newValue)
                    }
                }
            }
            """)
    }

    @Test func onlyTheStoredVariablesOfAClassAreLeftUncheckedForExclusivity() {
        expect(
            """
            @Entity
            final class Note {
                static var created = 0
                var id: Id = 0
                var text = "" { didSet { Note.created += 1 } }
                let kind = 1
                var length: Int { text.count }
            }
            """,
            expands: """
            final class Note {
                static var created = 0
                @exclusivity(unchecked)
                var id: Id = 0
                @exclusivity(unchecked)
                var text = "" { didSet { Note.created += 1 } }
                let kind = 1
                var length: Int { text.count }

                static let id = TrellisObjects.Property<Note, Id>("id")

                static let text = TrellisObjects.Property<Note, String>("text")

                static let kind = TrellisObjects.Property<Note, Int>("kind")

                convenience init(reading reader: TrellisObjects.EntityReader) throws {
                    self.init()
                    self.id = try reader.read("id")
                    self.text = try reader.read("text")
                }
            }

            extension Note: TrellisObjects.EntityBinding, TrellisObjects._EntityReadLoops {
                func write(to writer: TrellisObjects.EntityWriter) throws {
                    try writer.write(self.id, to: "id")
                    try writer.write(self.text, to: "text")
                    try writer.write(self.kind, to: "kind")
                }

                var entityId: TrellisObjects.Id {
                    get {
                        self.id
                    }
                    set {
                        self.id = newValue
                    }
                }
            }
            """)
    }

    @Test func declaredStaticMembersAreLeftAlone() {
        expect(
            """
            @Entity
            struct Gadget {
                static let idPropertyName = "serial"
                static let name = Property<Gadget, String>("name")
                var serial: UInt64 = 0
                var name = ""
            }
            """,
            expands: """
            struct Gadget {
                static let idPropertyName = "serial"
                static let name = Property<Gadget, String>("name")
                var serial: UInt64 = 0
                var name = ""

                static let serial = TrellisObjects.Property<Gadget, UInt64>("id")
            }

            extension Gadget: TrellisObjects.EntityBinding, TrellisObjects._EntityReadLoops {
                init(reading reader: TrellisObjects.EntityReader) throws {
                    self.serial = try reader.read("id")
                    self.name = try reader.read("name")
                }

                func write(to writer: TrellisObjects.EntityWriter) throws {
                    try writer.write(self.serial, to: "id")
                    try writer.write(self.name, to: "name")
                }

                var entityId: TrellisObjects.Id {
                    get {
                        self.serial
                    }
                    set {
                        self.serial = newValue
                    }
                }
            }
            """)
    }

    @Test func privateTypeGetsFileprivateMembers() {
        expect(
            """
            @Entity
            private struct Note {
                var id: Id = 0
            }
            """,
            expands: """
            private struct Note {
                var id: Id = 0

                static let id = TrellisObjects.Property<Note, Id>("id")
            }

            extension Note: TrellisObjects.EntityBinding, TrellisObjects._EntityReadLoops {
                fileprivate init(reading reader: TrellisObjects.EntityReader) throws {
                    self.id = try reader.read("id")
                }

                fileprivate func write(to writer: TrellisObjects.EntityWriter) throws {
                    try writer.write(self.id, to: "id")
                }

                fileprivate var entityId: TrellisObjects.Id {
                    get {
                        self.id
                    }
                    set {
                        self.id = newValue
                    }
                }
            }
            """)
    }

    @Test func convertedPropertiesAreStoredAsTheirStoredTypeAndMadeCodable() {
        expect(
            """
            @Entity
            struct Task {
                var id: Id = 0
                // objectbox: convert = { "dbType": "Int", "default": ".unknown" }
                var state: State
                // objectbox: convert
                var mood: Mood?
                // objectbox: convert = { "dbType": "Int", "converter": "RoleConverter" }
                var role: Role
                var tags: [String]?
            }
            """,
            expands: """
            struct Task {
                var id: Id = 0
                // objectbox: convert = { "dbType": "Int", "default": ".unknown" }
                var state: State
                // objectbox: convert
                var mood: Mood?
                // objectbox: convert = { "dbType": "Int", "converter": "RoleConverter" }
                var role: Role
                var tags: [String]?

                static let id = TrellisObjects.Property<Task, Id>("id")

                static let state = TrellisObjects.Property<Task, Int>("state")

                static let mood = TrellisObjects.Property<Task, Mood.RawValue?>("mood")

                static let role = TrellisObjects.Property<Task, Int>("role")

                static let tags = TrellisObjects.Property<Task, [String]?>("tags")

                private enum _EntityCodingKeys: String, CodingKey {
                    case id = "id"
                    case state = "state"
                    case mood = "mood"
                    case role = "role"
                    case tags = "tags"
                }
            }

            extension Task: TrellisObjects.EntityBinding, TrellisObjects._EntityReadLoops {
                init(reading reader: TrellisObjects.EntityReader) throws {
                    self.id = try reader.read("id")
                    self.state = try reader.read("state", default: .unknown)
                    self.mood = try reader.readIfPresent("mood", default: nil)
                    self.role = RoleConverter.convert(try reader.readIfPresent("role") as Int?)
                    self.tags = try reader.readIfPresent("tags")
                }

                init(from decoder: any Decoder) throws {
                    let container = try decoder.container(keyedBy: _EntityCodingKeys.self)
                    self.id = try container.decode(Id.self, forKey: .id)
                    self.state = try TrellisObjects.RawValueConversion.value(try container.decodeIfPresent(Int.self, forKey: .state), default: .unknown, property: "state")
                    self.mood = TrellisObjects.RawValueConversion.valueIfPresent(try container.decodeIfPresent(Mood.RawValue.self, forKey: .mood), default: nil)
                    self.role = RoleConverter.convert(try container.decodeIfPresent(Int.self, forKey: .role))
                    self.tags = try container.decodeIfPresent([String].self, forKey: .tags)
                }

                func write(to writer: TrellisObjects.EntityWriter) throws {
                    try writer.write(self.id, to: "id")
                    try writer.write(self.state.rawValue, to: "state")
                    try writer.writeIfPresent(self.mood?.rawValue, to: "mood")
                    try writer.write(RoleConverter.convert(self.role), to: "role")
                    try writer.writeIfPresent(self.tags, to: "tags")
                }

                var entityId: TrellisObjects.Id {
                    get {
                        self.id
                    }
                    set {
                        self.id = newValue
                    }
                }

                func encode(to encoder: any Encoder) throws {
                    var container = encoder.container(keyedBy: _EntityCodingKeys.self)
                    try container.encode(self.id, forKey: .id)
                    try container.encode(self.state.rawValue, forKey: .state)
                    try container.encodeIfPresent(self.mood?.rawValue, forKey: .mood)
                    try container.encode(RoleConverter.convert(self.role), forKey: .role)
                    try container.encodeIfPresent(self.tags, forKey: .tags)
                }
            }
            """)
    }

    @Test func aConverterNeedsItsStoredType() {
        expect(
            """
            @Entity
            struct Account {
                var id: Id = 0
                // objectbox: convert = { "converter": "RoleConverter" }
                var role: Role
            }
            """,
            expands: """
            struct Account {
                var id: Id = 0
                // objectbox: convert = { "converter": "RoleConverter" }
                var role: Role
            }
            """,
            diagnostics: [DiagnosticSpec(
                message: "the convert annotation of 'role' names a converter: name the stored type too (`\"dbType\": \"Int\"`)",
                line: 5, column: 9)])
    }

    // MARK: Diagnostics

    @Test func aTypeTheMacroCanNotReadNeedsAnAnnotation() {
        expect(
            """
            @Entity
            final class Event {
                var id: Id = 0
                var date = Date()
            }
            """,
            expands: """
            final class Event {
                @exclusivity(unchecked)
                var id: Id = 0
                @exclusivity(unchecked)
                var date = Date()
            }
            """,
            diagnostics: [DiagnosticSpec(
                message: "@Entity reads the type of 'date' from a string, integer, floating-point or boolean literal only: write its type (`var date: Date = ...`)",
                line: 4, column: 9)])
    }

    @Test func anEntityNeedsAnIdProperty() {
        expect(
            """
            @Entity
            final class Note {
                var text = ""
            }
            """,
            expands: """
            final class Note {
                @exclusivity(unchecked)
                var text = ""
            }
            """,
            diagnostics: [DiagnosticSpec(
                message: "@Entity Note has no id property: declare `var id: Id = 0`, or mark the id property with `// objectbox: id`",
                line: 2, column: 7)])
    }

    @Test func theIdPropertyHasAnIdType() {
        expect(
            """
            @Entity
            struct Note {
                var id = 0
            }
            """,
            expands: """
            struct Note {
                var id = 0
            }
            """,
            diagnostics: [DiagnosticSpec(
                message: "the id property 'id' is a Int: declare it as Id, EntityId<...>, UInt64 or Int64",
                line: 3, column: 9)])
    }

    @Test func aClassNeedsAnEmptyInitializer() {
        expect(
            """
            @Entity
            final class Note {
                var id: Id
                var text: String
                init(text: String) {
                    self.id = 0
                    self.text = text
                }
            }
            """,
            expands: """
            final class Note {
                @exclusivity(unchecked)
                var id: Id
                @exclusivity(unchecked)
                var text: String
                init(text: String) {
                    self.id = 0
                    self.text = text
                }
            }
            """,
            diagnostics: [DiagnosticSpec(
                message: "@Entity makes objects of Note with init() before it reads their properties: declare `init()`, or give every stored property a default value",
                line: 2, column: 7)])
    }

    @Test func aClassReadsNoConstant() {
        expect(
            """
            @Entity
            final class Note {
                var id: Id = 0
                let text: String
                init() { text = "" }
            }
            """,
            expands: """
            final class Note {
                @exclusivity(unchecked)
                var id: Id = 0
                let text: String
                init() { text = "" }
            }
            """,
            diagnostics: [DiagnosticSpec(
                message: "@Entity reads 'text' after init(), which can not assign a constant: declare it with `var`",
                line: 4, column: 9)])
    }

    @Test func aClassThatIsNotFinalSaysEntity() {
        expect(
            """
            @Entity
            class Note {
                var id: Id = 0
            }
            """,
            expands: """
            class Note {
                @exclusivity(unchecked)
                var id: Id = 0
            }
            """,
            diagnostics: [DiagnosticSpec(
                message: "@Entity on a class that is not final: declare Note `final`, or write `: Entity` in its declaration so that its Codable conformance is complete",
                line: 2, column: 1)])
    }

    @Test func aBacklinkIsOnAToMany() {
        expect(
            """
            @Entity
            final class Order {
                var id: Id = 0
                // objectbox: backlink = "orders"
                var customer: ToOne<Customer> = nil
            }
            """,
            expands: """
            final class Order {
                @exclusivity(unchecked)
                var id: Id = 0
                @exclusivity(unchecked)
                // objectbox: backlink = "orders"
                var customer: ToOne<Customer> = nil
            }
            """,
            diagnostics: [DiagnosticSpec(
                message: "'customer' is not a ToMany: a backlink annotation applies to a ToMany property",
                line: 5, column: 9)])
    }

    @Test func aTransientPropertyHasADefaultValue() {
        expect(
            """
            @Entity
            struct Note {
                var id: Id
                // objectbox: transient
                var cache: [String: Int]
            }
            """,
            expands: """
            struct Note {
                var id: Id
                // objectbox: transient
                var cache: [String: Int]
            }
            """,
            diagnostics: [DiagnosticSpec(
                message: "the transient property 'cache' is not read from the store: give it a default value",
                line: 5, column: 9)])
    }

    @Test func aTransientPropertyOfAClassTakesItsValueFromInit() {
        expect(
            """
            @Entity
            final class User {
                var id: Id = 0
                // objectbox: transient
                private var tempUsageCount: Int
                init() { tempUsageCount = 0 }
            }
            """,
            expands: """
            final class User {
                @exclusivity(unchecked)
                var id: Id = 0
                @exclusivity(unchecked)
                // objectbox: transient
                private var tempUsageCount: Int
                init() { tempUsageCount = 0 }

                static let id = TrellisObjects.Property<User, Id>("id")

                convenience init(reading reader: TrellisObjects.EntityReader) throws {
                    self.init()
                    self.id = try reader.read("id")
                }
            }

            extension User: TrellisObjects.EntityBinding, TrellisObjects._EntityReadLoops {
                func write(to writer: TrellisObjects.EntityWriter) throws {
                    try writer.write(self.id, to: "id")
                }

                var entityId: TrellisObjects.Id {
                    get {
                        self.id
                    }
                    set {
                        self.id = newValue
                    }
                }
            }
            """)
    }

    @Test func annotationsAndTheStaticTheyReplaceAreNotMixed() {
        expect(
            """
            @Entity
            final class Tutor {
                static let backlinks = ["pupils": "teachers"]
                var id: Id = 0
                // objectbox: backlink = "teachers"
                var pupils: ToMany<Pupil> = nil
            }
            """,
            expands: """
            final class Tutor {
                static let backlinks = ["pupils": "teachers"]
                @exclusivity(unchecked)
                var id: Id = 0
                @exclusivity(unchecked)
                // objectbox: backlink = "teachers"
                var pupils: ToMany<Pupil> = nil
            }
            """,
            diagnostics: [DiagnosticSpec(
                message: "the type declares `backlinks`, which `// objectbox: backlink` would replace: use one or the other",
                line: 2, column: 7)])
    }

    @Test func anEnumIsRefused() {
        expect(
            """
            @Entity
            enum Note {
                case a
            }
            """,
            expands: """
            enum Note {
                case a
            }
            """,
            diagnostics: [DiagnosticSpec(message: "@Entity applies to a struct or a class", line: 1, column: 1)])
    }
}
