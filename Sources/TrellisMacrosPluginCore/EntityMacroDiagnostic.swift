import SwiftDiagnostics

/// The errors of the entity macro, which ask for what it can not guess.
enum EntityMacroDiagnostic: DiagnosticMessage {
    case noIdProperty(entity: String)
    case idType(String, type: String)
    case typeNotInferred(String)
    case noEmptyInit(entity: String)
    case constantInClass(String)
    case nonFinalClassNotEntity(entity: String)
    case backlinkNotToMany(String)
    case transientWithoutValue(String)
    case annotationAndStatic(annotation: String, member: String)
    case convertRelation(String)
    case converterWithoutDbType(String)

    var message: String {
        switch self {
        case .noIdProperty(let entity):
            return "@Entity \(entity) has no id property: declare `var id: Id = 0`, or mark the id property with `// objectbox: id`"
        case .idType(let name, let type):
            return "the id property '\(name)' is a \(type): declare it as Id, EntityId<...>, UInt64 or Int64"
        case .typeNotInferred(let name):
            return "@Entity reads the type of '\(name)' from a string, integer, floating-point or boolean literal only: write its type (`var \(name): Date = ...`)"
        case .noEmptyInit(let entity):
            return "@Entity makes objects of \(entity) with init() before it reads their properties: declare `init()`, or give every stored property a default value"
        case .constantInClass(let name):
            return "@Entity reads '\(name)' after init(), which can not assign a constant: declare it with `var`"
        case .nonFinalClassNotEntity(let entity):
            return "@Entity on a class that is not final: declare \(entity) `final`, or write `: Entity` in its declaration so that its Codable conformance is complete"
        case .backlinkNotToMany(let name):
            return "'\(name)' is not a ToMany: a backlink annotation applies to a ToMany property"
        case .transientWithoutValue(let name):
            return "the transient property '\(name)' is not read from the store: give it a default value"
        case .annotationAndStatic(let annotation, let member):
            return "the type declares `\(member)`, which `// objectbox: \(annotation)` would replace: use one or the other"
        case .convertRelation(let name):
            return "'\(name)' is a relation, which the store keeps itself: a convert annotation applies to a value property"
        case .converterWithoutDbType(let name):
            return "the convert annotation of '\(name)' names a converter: name the stored type too (`\"dbType\": \"Int\"`)"
        }
    }

    var diagnosticID: MessageID {
        MessageID(domain: "TrellisMacros", id: "Entity." + "\(self)".prefix { $0 != "(" })
    }

    var severity: DiagnosticSeverity { .error }
}
