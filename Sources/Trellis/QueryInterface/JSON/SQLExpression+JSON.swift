// How JSON values travel through SQL expressions.
//
// SQLite reads JSON text as a plain string: `JSON_ARRAY('[1]')` is
// `["[1]"]`. The results of JSON functions are different: SQLite knows
// they are JSON, and `JSON_ARRAY(JSON('[1]'))` is `[[1]]`. So an expression
// that holds JSON text (a JSON column, `asJSON`) is wrapped in `JSON()`
// when a JSON function embeds it in the JSON it builds, and the result of
// a JSON function is embedded as it is.

/// The kind of JSON an expression holds.
enum SQLJSONValueKind: Sendable {
    /// JSON text, such as the content of a JSON column: SQLite reads it as
    /// a string unless it is wrapped in `JSON()`.
    case text
    /// The result of a JSON function, that SQLite reads as JSON.
    case functionResult
}

extension SQLExpression {
    /// The expression, marked as JSON text unless it already holds JSON.
    var jsonValue: SQLExpression {
        if case .json = impl { return self }
        return SQLExpression(.json(self, .text))
    }

    /// The expression as a value embedded by a JSON function (an element
    /// of `JSON_ARRAY`, a value of `JSON_OBJECT` or `JSON_SET`): JSON text
    /// is wrapped in `JSON()`, so that it is embedded as JSON and not as
    /// a string.
    var embeddedInJSON: SQLExpression {
        if case .json(let text, .text) = impl {
            return .jsonFunction("JSON", [text])
        }
        return self
    }

    /// The result of the JSON function `name`, that SQLite reads as JSON.
    static func jsonFunction(_ name: String, _ arguments: [SQLExpression]) -> SQLExpression {
        SQLExpression(.json(SQLExpression(.function(name, arguments, distinct: false)), .functionResult))
    }

    /// The result of the JSON function `name` that SQLite does not read as
    /// JSON: a plain SQL value such as a number, a string or NULL.
    static func jsonScalarFunction(_ name: String, _ arguments: [SQLExpression]) -> SQLExpression {
        SQLExpression(.function(name, arguments, distinct: false))
    }
}

/// A value embedded by a JSON function: a JSON expression, even one whose
/// own `sqlExpression` does not say it (a type of the application that
/// adopts ``SQLJSONExpressible``), is embedded as JSON.
func jsonEmbeddedValue(_ value: any SQLExpressible) -> SQLExpression {
    if let json = value as? any SQLJSONExpressible {
        return json.sqlExpression.jsonValue.embeddedInJSON
    }
    return value.sqlExpression.embeddedInJSON
}
