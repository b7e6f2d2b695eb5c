import SwiftDiagnostics
import SwiftSyntax

/// The compile-time errors of the record macros.
enum RecordMacroDiagnostic: DiagnosticMessage {
    case notAStructOrClass(macro: String)
    case columnNameNotALiteral
    case duplicateColumn(String, first: String, second: String)
    case excludedWithoutValue(String)
    case propertyWrapper(String, wrapper: String)
    case columnStrategy(String)

    var message: String {
        switch self {
        case .notAStructOrClass(let macro):
            return "@\(macro) applies to a struct or a class"
        case .columnNameNotALiteral:
            return "@Column takes the column name as a string literal, such as @Column(\"player_name\")"
        case .duplicateColumn(let column, let first, let second):
            return "properties '\(first)' and '\(second)' both use the column '\(column)' (column names ignore case)"
        case .excludedWithoutValue(let name):
            return "property '\(name)' is not in CodingKeys, so it is not read from the database: give it a default value"
        case .propertyWrapper(let name, let wrapper):
            return "property '\(name)' has the wrapper @\(wrapper), which a record can not read or write: store its wrapped value in a plain property"
        case .columnStrategy(let member):
            return "the record macros name columns at compile time, so '\(member)' would be ignored: name the columns with CodingKeys or @Column(\"...\") instead"
        }
    }

    var diagnosticID: MessageID {
        MessageID(domain: "TrellisMacros", id: "\(self)".prefix { $0 != "(" }.description)
    }

    var severity: DiagnosticSeverity { .error }
}
