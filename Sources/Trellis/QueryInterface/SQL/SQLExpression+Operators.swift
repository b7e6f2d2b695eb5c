// Operators that build SQL expressions. At least one side of each operator
// must be a column, an expression or an SQL literal (`SQLSpecificExpressible`),
// so that comparisons of plain Swift values keep their usual meaning.

// MARK: - Equality

private func equal(_ lhs: SQLExpression, _ rhs: SQLExpression, negated: Bool) -> SQLExpression {
    if rhs.databaseValue?.isNull == true { return SQLExpression(.isNull(lhs, negated: negated)) }
    if lhs.databaseValue?.isNull == true { return SQLExpression(.isNull(rhs, negated: negated)) }
    return SQLExpression(.binary(negated ? "<>" : "=", lhs, rhs))
}

private func identical(_ lhs: SQLExpression, _ rhs: SQLExpression, negated: Bool) -> SQLExpression {
    if rhs.databaseValue?.isNull == true { return SQLExpression(.isNull(lhs, negated: negated)) }
    if lhs.databaseValue?.isNull == true { return SQLExpression(.isNull(rhs, negated: negated)) }
    return SQLExpression(.binary(negated ? "IS NOT" : "IS", lhs, rhs))
}

/// `lhs = rhs`, or `lhs IS NULL` when `rhs` is nil.
public func == (lhs: some SQLSpecificExpressible, rhs: (any SQLExpressible)?) -> SQLExpression {
    equal(lhs.sqlExpression, rhs?.sqlExpression ?? .value(.null), negated: false)
}

public func == (lhs: (any SQLExpressible)?, rhs: some SQLSpecificExpressible) -> SQLExpression {
    equal(lhs?.sqlExpression ?? .value(.null), rhs.sqlExpression, negated: false)
}

public func == (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    equal(lhs.sqlExpression, rhs.sqlExpression, negated: false)
}

/// `lhs <> rhs`, or `lhs IS NOT NULL` when `rhs` is nil.
public func != (lhs: some SQLSpecificExpressible, rhs: (any SQLExpressible)?) -> SQLExpression {
    equal(lhs.sqlExpression, rhs?.sqlExpression ?? .value(.null), negated: true)
}

public func != (lhs: (any SQLExpressible)?, rhs: some SQLSpecificExpressible) -> SQLExpression {
    equal(lhs?.sqlExpression ?? .value(.null), rhs.sqlExpression, negated: true)
}

public func != (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    equal(lhs.sqlExpression, rhs.sqlExpression, negated: true)
}

/// `lhs IS rhs`.
public func === (lhs: some SQLSpecificExpressible, rhs: (any SQLExpressible)?) -> SQLExpression {
    identical(lhs.sqlExpression, rhs?.sqlExpression ?? .value(.null), negated: false)
}

public func === (lhs: (any SQLExpressible)?, rhs: some SQLSpecificExpressible) -> SQLExpression {
    identical(lhs?.sqlExpression ?? .value(.null), rhs.sqlExpression, negated: false)
}

public func === (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    identical(lhs.sqlExpression, rhs.sqlExpression, negated: false)
}

/// `lhs IS NOT rhs`.
public func !== (lhs: some SQLSpecificExpressible, rhs: (any SQLExpressible)?) -> SQLExpression {
    identical(lhs.sqlExpression, rhs?.sqlExpression ?? .value(.null), negated: true)
}

public func !== (lhs: (any SQLExpressible)?, rhs: some SQLSpecificExpressible) -> SQLExpression {
    identical(lhs?.sqlExpression ?? .value(.null), rhs.sqlExpression, negated: true)
}

public func !== (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression {
    identical(lhs.sqlExpression, rhs.sqlExpression, negated: true)
}

// MARK: - Comparison and arithmetic

private func binary(_ op: String, _ lhs: any SQLExpressible, _ rhs: any SQLExpressible) -> SQLExpression {
    SQLExpression(.binary(op, lhs.sqlExpression, rhs.sqlExpression))
}

public func < (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression { binary("<", lhs, rhs) }
public func < (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression { binary("<", lhs, rhs) }
public func < (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression { binary("<", lhs, rhs) }
public func <= (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression { binary("<=", lhs, rhs) }
public func <= (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression { binary("<=", lhs, rhs) }
public func <= (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression { binary("<=", lhs, rhs) }
public func > (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression { binary(">", lhs, rhs) }
public func > (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression { binary(">", lhs, rhs) }
public func > (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression { binary(">", lhs, rhs) }
public func >= (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression { binary(">=", lhs, rhs) }
public func >= (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression { binary(">=", lhs, rhs) }
public func >= (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression { binary(">=", lhs, rhs) }

private func associative(_ op: String, _ lhs: any SQLExpressible, _ rhs: any SQLExpressible) -> SQLExpression {
    var operands: [SQLExpression] = []
    for operand in [lhs.sqlExpression, rhs.sqlExpression] {
        if case .associative(op, let nested) = operand.impl {
            operands.append(contentsOf: nested)
        } else {
            operands.append(operand)
        }
    }
    return SQLExpression(.associative(op, operands))
}

public func + (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression { associative("+", lhs, rhs) }
public func + (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression { associative("+", lhs, rhs) }
public func + (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression { associative("+", lhs, rhs) }
public func - (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression { binary("-", lhs, rhs) }
public func - (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression { binary("-", lhs, rhs) }
public func - (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression { binary("-", lhs, rhs) }
public func * (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression { associative("*", lhs, rhs) }
public func * (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression { associative("*", lhs, rhs) }
public func * (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression { associative("*", lhs, rhs) }
public func / (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression { binary("/", lhs, rhs) }
public func / (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression { binary("/", lhs, rhs) }
public func / (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression { binary("/", lhs, rhs) }
public func % (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression { binary("%", lhs, rhs) }
public func % (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression { binary("%", lhs, rhs) }

/// `-x`
public prefix func - (value: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(.unary("-", value.sqlExpression))
}

// MARK: - Logic

public func && (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression { associative("AND", lhs, rhs) }
public func && (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression { associative("AND", lhs, rhs) }
public func && (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression { associative("AND", lhs, rhs) }
public func || (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression { associative("OR", lhs, rhs) }
public func || (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression { associative("OR", lhs, rhs) }
public func || (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression { associative("OR", lhs, rhs) }

/// `NOT x`
public prefix func ! (value: some SQLSpecificExpressible) -> SQLExpression {
    let expression = value.sqlExpression
    switch expression.impl {
    case .isNull(let x, let negated): return SQLExpression(.isNull(x, negated: !negated))
    case .inList(let x, let xs, let negated): return SQLExpression(.inList(x, xs, negated: !negated))
    case .inSubquery(let x, let subquery, let negated): return SQLExpression(.inSubquery(x, subquery, negated: !negated))
    case .between(let x, let y, let z, let negated): return SQLExpression(.between(x, y, z, negated: !negated))
    case .exists(let subquery, let negated): return SQLExpression(.exists(subquery, negated: !negated))
    case .deferred(let resolve):
        // Negates once resolved, so that `!alias.exists` is `IS NULL`, as
        // GRDB writes it, and not `NOT (... IS NOT NULL)`.
        return SQLExpression(.deferred { context in !(try resolve(context)) })
    default: return SQLExpression(.unary("NOT", expression))
    }
}

/// `IFNULL(lhs, rhs)`
public func ?? (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression {
    SQLExpression(.function("IFNULL", [lhs.sqlExpression, rhs.sqlExpression], distinct: false))
}

// MARK: - Methods

extension SQLSpecificExpressible {
    /// `x LIKE pattern`
    ///
    /// ```swift
    /// Player.filter(Column("email").like("%@example.com"))
    /// ```
    public func like(_ pattern: some SQLExpressible, escape: (any SQLExpressible)? = nil) -> SQLExpression {
        if let escape {
            return SQLExpression(.function("LIKE", [pattern.sqlExpression, sqlExpression, escape.sqlExpression], distinct: false))
        }
        return SQLExpression(.binary("LIKE", sqlExpression, pattern.sqlExpression))
    }

    /// `x COLLATE name`
    public func collating(_ collation: Database.CollationName) -> SQLExpression {
        SQLExpression(.collated(sqlExpression, collation.rawValue))
    }

    /// `x COLLATE name`, with a collation implemented in Swift.
    ///
    /// ```swift
    /// Author.order(Column("name").collating(.localizedCaseInsensitiveCompare))
    /// ```
    public func collating(_ collation: DatabaseCollation) -> SQLExpression {
        SQLExpression(.customCollated(sqlExpression, collation))
    }

    /// `CAST(x AS type)`
    public func cast(as type: Database.ColumnType) -> SQLExpression {
        SQLExpression(.cast(sqlExpression, type.rawValue))
    }

    /// `x BETWEEN low AND high`, for a closed range.
    public func between(_ low: some SQLExpressible, _ high: some SQLExpressible) -> SQLExpression {
        SQLExpression(.between(sqlExpression, low.sqlExpression, high.sqlExpression, negated: false))
    }

    /// `x IS NULL`, as a Bool-valued expression.
    public var isNull: SQLExpression { SQLExpression(.isNull(sqlExpression, negated: false)) }

    /// The expression as an SQL expression, for explicit conversions.
    public var expression: SQLExpression { sqlExpression }
}

extension Sequence where Element: SQLExpressible {
    /// `x IN (a, b, c)`
    ///
    /// ```swift
    /// Player.filter([1, 2, 3].contains(Column("id")))
    /// ```
    public func contains(_ element: some SQLSpecificExpressible) -> SQLExpression {
        SQLExpression(.inList(element.sqlExpression, map(\.sqlExpression), negated: false))
    }
}

extension Sequence where Element == any SQLExpressible {
    /// `x IN (a, b, c)`
    public func contains(_ element: some SQLSpecificExpressible) -> SQLExpression {
        SQLExpression(.inList(element.sqlExpression, map(\.sqlExpression), negated: false))
    }
}

extension ClosedRange where Bound: SQLExpressible {
    /// `x BETWEEN lower AND upper`
    ///
    /// ```swift
    /// Player.filter((1000...2000).contains(Column("score")))
    /// ```
    public func contains(_ element: some SQLSpecificExpressible) -> SQLExpression {
        SQLExpression(.between(element.sqlExpression, lowerBound.sqlExpression, upperBound.sqlExpression, negated: false))
    }
}

extension Range where Bound: SQLExpressible {
    /// `x >= lower AND x < upper`
    public func contains(_ element: some SQLSpecificExpressible) -> SQLExpression {
        let x = element.sqlExpression
        return SQLExpression(.associative("AND", [
            SQLExpression(.binary(">=", x, lowerBound.sqlExpression)),
            SQLExpression(.binary("<", x, upperBound.sqlExpression)),
        ]))
    }
}

extension SQLSubqueryable {
    /// `x IN (SELECT ...)`
    ///
    /// ```swift
    /// let activeIds = Player.select(Column("id")).filter(Column("isActive"))
    /// Score.filter(activeIds.contains(Column("playerId")))
    /// ```
    public func contains(_ element: some SQLExpressible) -> SQLExpression {
        SQLExpression(.inSubquery(element.sqlExpression, sqlSubquery, negated: false))
    }

    /// `EXISTS (SELECT ...)`
    public func exists() -> SQLExpression {
        SQLExpression(.exists(sqlSubquery, negated: false))
    }
}

// MARK: - Bitwise operators

/// `x & y`
public func & (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression { associative("&", lhs, rhs) }
public func & (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression { associative("&", lhs, rhs) }
public func & (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression { associative("&", lhs, rhs) }
/// `x | y`
public func | (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression { associative("|", lhs, rhs) }
public func | (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression { associative("|", lhs, rhs) }
public func | (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression { associative("|", lhs, rhs) }
/// `x << y`
public func << (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression { binary("<<", lhs, rhs) }
public func << (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression { binary("<<", lhs, rhs) }
public func << (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression { binary("<<", lhs, rhs) }
/// `x >> y`
public func >> (lhs: some SQLSpecificExpressible, rhs: some SQLExpressible) -> SQLExpression { binary(">>", lhs, rhs) }
public func >> (lhs: some SQLExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression { binary(">>", lhs, rhs) }
public func >> (lhs: some SQLSpecificExpressible, rhs: some SQLSpecificExpressible) -> SQLExpression { binary(">>", lhs, rhs) }

/// `~x`
public prefix func ~ (value: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(.unary("~", value.sqlExpression))
}

// MARK: - Joining sequences of expressions

extension SQLExpression {
    /// An operator that joins a sequence of expressions:
    /// `[a, b, c].joined(operator: .and)`.
    public struct AssociativeBinaryOperator: Hashable, Sendable {
        let sql: String
        /// The result of joining no expression.
        let neutralValue: DatabaseValue

        /// `+`: joining nothing gives 0.
        public static let add = AssociativeBinaryOperator(sql: "+", neutralValue: 0)
        /// `*`: joining nothing gives 1.
        public static let multiply = AssociativeBinaryOperator(sql: "*", neutralValue: 1)
        /// `AND`: joining nothing gives true.
        public static let and = AssociativeBinaryOperator(sql: "AND", neutralValue: 1)
        /// `OR`: joining nothing gives false.
        public static let or = AssociativeBinaryOperator(sql: "OR", neutralValue: 0)
        /// `||`, string concatenation: joining nothing gives ''.
        public static let concat = AssociativeBinaryOperator(sql: "||", neutralValue: "")
        /// `&`: joining nothing gives -1 (all bits set).
        public static let bitwiseAnd = AssociativeBinaryOperator(sql: "&", neutralValue: -1)
        /// `|`: joining nothing gives 0.
        public static let bitwiseOr = AssociativeBinaryOperator(sql: "|", neutralValue: 0)
    }
}

private func joined(_ expressions: [SQLExpression], operator op: SQLExpression.AssociativeBinaryOperator) -> SQLExpression {
    switch expressions.count {
    case 0: return .value(op.neutralValue)
    case 1: return expressions[0]
    default: return SQLExpression(.associative(op.sql, expressions))
    }
}

extension Sequence where Element: SQLExpressible {
    /// The expressions joined with an operator.
    ///
    /// ```swift
    /// // score + bonus + 1000
    /// [Column("score"), Column("bonus"), 1000.databaseValue].joined(operator: .add)
    /// ```
    public func joined(operator: SQLExpression.AssociativeBinaryOperator) -> SQLExpression {
        Trellis.joined(map(\.sqlExpression), operator: `operator`)
    }
}

extension Sequence where Element == any SQLExpressible {
    /// The expressions joined with an operator.
    public func joined(operator: SQLExpression.AssociativeBinaryOperator) -> SQLExpression {
        Trellis.joined(map(\.sqlExpression), operator: `operator`)
    }
}

extension Sequence where Element == any SQLSpecificExpressible {
    /// The expressions joined with an operator.
    ///
    /// ```swift
    /// Player.filter { [$0.isVerified, $0.score >= 1000, $0.name != nil].joined(operator: .and) }
    /// ```
    public func joined(operator: SQLExpression.AssociativeBinaryOperator) -> SQLExpression {
        Trellis.joined(map(\.sqlExpression), operator: `operator`)
    }
}

/// `CAST(x AS type)`
///
/// ```swift
/// Player.select { (cast($0.wins, as: .real) / $0.games).forKey("successRate") }
/// ```
public func cast(_ expression: some SQLSpecificExpressible, as type: Database.ColumnType) -> SQLExpression {
    expression.cast(as: type)
}
