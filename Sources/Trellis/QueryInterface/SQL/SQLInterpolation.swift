/// What builds an ``SQL`` literal from a string interpolation, under the
/// name GRDB gives it, so that extensions written for GRDB compile.
///
/// ```swift
/// extension SQLInterpolation {
///     mutating func appendInterpolation(upper name: String) {
///         appendLiteral("UPPER(")
///         appendInterpolation(name)
///         appendLiteral(")")
///     }
/// }
/// let sql: SQL = "SELECT \(upper: "arthur")"
/// ```
public typealias SQLInterpolation = SQL.StringInterpolation
