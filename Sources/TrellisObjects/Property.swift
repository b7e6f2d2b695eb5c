import Trellis

/// A stored property of an entity, for queries and sorting: the
/// counterpart of the `Person.name` properties that ObjectBox's code
/// generator writes. The ``Entity()`` macro declares them; without it,
/// declare the properties you query, once, in an extension of the entity.
///
/// ```swift
/// class Person: Entity {
///     var id: Id = 0
///     var name = ""
///     var age = 0
/// }
///
/// extension Person {
///     static let name = Property<Person, String>("name")
///     static let age = Property<Person, Int>("age")
/// }
///
/// let adults = try personBox.query { Person.age >= 18 && Person.name.startsWith("A") }
///     .ordered(by: Person.name)
///     .build()
///     .find()
/// ```
///
/// The name is the property name, which is the name of its column (or
/// its `CodingKeys` raw value, when it has one). A `ToOne` relation is
/// declared with its type, and its conditions compare the ids of targets,
/// stored in the column `customerId` for `customer`:
///
/// ```swift
/// extension Order {
///     static let customer = Property<Order, ToOne<Customer>>("customer")
/// }
/// let ordersOfAnn = try orderBox.query { Order.customer == ann }.find()
/// let orphans = try orderBox.query { Order.customer.isNil() }.find()
/// ```
///
/// With the leading-dot syntax of ObjectBox (`.name == "Steve"`), declare
/// the property in a constrained extension of `Property` instead:
///
/// ```swift
/// extension Property where E == Person, V == String {
///     static var name: Property { Property("name") }
/// }
/// let steves = try personBox.query { .name == "Steve" }.find()
/// ```
public struct Property<E: Entity, V>: Sendable, CustomStringConvertible {
    /// The column of the property.
    public let name: String

    /// The column of the property: `customerId` for a `customer` relation,
    /// `id` for the id property whatever its name.
    let column: String

    /// A property stored in the column `name`.
    public init(_ name: String) {
        self.name = name
        if V.self is any AnyToOne.Type {
            column = name + "Id"
        } else if name == E.renamedIdKey {
            column = "id"
        } else {
            column = name
        }
    }

    public var description: String { "\(E.entityName).\(name)" }
}

// MARK: - Conditions on relations

extension Property {
    private func relationCondition(_ op: QueryCondition<E>.Operator, _ ids: [Id]) -> QueryCondition<E> {
        QueryCondition(column, op, ids.map { Int64(bitPattern: $0).databaseValue })
    }

    /// The relation points to `target` (`Order.customer == ann`).
    public func isEqual<T>(to target: T) -> QueryCondition<E> where V == ToOne<T> {
        relationCondition(.equal, [target.id])
    }

    /// The relation points to the object with the id `targetId`.
    public func isEqual<T>(to targetId: Id) -> QueryCondition<E> where V == ToOne<T> {
        relationCondition(.equal, [targetId])
    }

    /// The relation does not point to `target` (nil relations match).
    public func isNotEqual<T>(to target: T) -> QueryCondition<E> where V == ToOne<T> {
        relationCondition(.notEqual, [target.id])
    }

    /// The relation does not point to the object with the id `targetId`.
    public func isNotEqual<T>(to targetId: Id) -> QueryCondition<E> where V == ToOne<T> {
        relationCondition(.notEqual, [targetId])
    }

    /// The relation points to one of the objects with the ids `targetIds`.
    public func isIn<T>(_ targetIds: [Id]) -> QueryCondition<E> where V == ToOne<T> {
        relationCondition(.isIn, targetIds)
    }

    /// The relation points to no object.
    public func isNil<T>() -> QueryCondition<E> where V == ToOne<T> {
        relationCondition(.isNull, [])
    }

    /// The relation points to an object.
    public func isNotNil<T>() -> QueryCondition<E> where V == ToOne<T> {
        relationCondition(.isNotNull, [])
    }
}

public func == <E, T>(lhs: Property<E, ToOne<T>>, rhs: T) -> QueryCondition<E> { lhs.isEqual(to: rhs) }
public func == <E, T>(lhs: Property<E, ToOne<T>>, rhs: Id) -> QueryCondition<E> { lhs.isEqual(to: rhs) }
public func != <E, T>(lhs: Property<E, ToOne<T>>, rhs: T) -> QueryCondition<E> { lhs.isNotEqual(to: rhs) }
public func != <E, T>(lhs: Property<E, ToOne<T>>, rhs: Id) -> QueryCondition<E> { lhs.isNotEqual(to: rhs) }
public func ∈ <E, T>(lhs: Property<E, ToOne<T>>, rhs: [Id]) -> QueryCondition<E> { lhs.isIn(rhs) }

/// A condition of a query on the properties of an entity, made with the
/// methods and operators of ``Property`` and combined with `&&` and `||`.
///
/// ```swift
/// let query = try personBox.query {
///     (Person.name.contains("Santa") || Person.age > 100) && Person.name.endsWith("Claus")
/// }.build()
/// ```
///
/// A condition written with the query interface of Trellis joins in with
/// ``init(_:)``: `Person.age > 18 && QueryCondition(Column("name").like("A%"))`.
public struct QueryCondition<E: Entity> {
    enum Operator {
        case equal, notEqual, less, lessOrEqual, greater, greaterOrEqual
        case between, isIn, isNotIn
        case startsWith, endsWith, contains
        case isNull, isNotNull
    }

    /// A condition on one property, whose values a query parameter can
    /// change.
    struct Comparison {
        let column: String
        let op: Operator
        var values: [DatabaseValue]
        let caseSensitive: Bool
        var alias: String?
    }

    /// Chains of `&&` and of `||` are flat lists, so that a long chain
    /// never makes a deep tree that rendering would walk recursively.
    indirect enum Node {
        case comparison(Comparison)
        case and([Node])
        case or([Node])
        case expression(SQLExpression)

        static func and(_ lhs: Node, _ rhs: Node) -> Node {
            .and(lhs.operands(ofAnd: true) + rhs.operands(ofAnd: true))
        }

        static func or(_ lhs: Node, _ rhs: Node) -> Node {
            .or(lhs.operands(ofAnd: false) + rhs.operands(ofAnd: false))
        }

        /// The node as operands of an AND (or of an OR): its own operands
        /// when it is one already.
        private func operands(ofAnd isAnd: Bool) -> [Node] {
            switch self {
            case .and(let nodes) where isAnd: return nodes
            case .or(let nodes) where !isAnd: return nodes
            default: return [self]
            }
        }
    }

    var node: Node

    init(_ node: Node) {
        self.node = node
    }

    init(_ column: String, _ op: Operator, _ values: [DatabaseValue], caseSensitive: Bool = true) {
        node = .comparison(Comparison(column: column, op: op, values: values, caseSensitive: caseSensitive, alias: nil))
    }

    /// A condition written with the query interface of Trellis.
    ///
    /// ```swift
    /// personBox.query { Person.age > 18 && QueryCondition(Column("name").like("A%")) }
    /// ```
    public init(_ expression: some SQLExpressible) {
        node = .expression(expression.sqlExpression)
    }

    /// Both conditions: `Person.age > 18 && Person.name.startsWith("A")`.
    public static func && (lhs: QueryCondition, rhs: QueryCondition) -> QueryCondition {
        QueryCondition(.and(lhs.node, rhs.node))
    }

    /// Either condition: `Person.age < 18 || Person.age > 65`.
    public static func || (lhs: QueryCondition, rhs: QueryCondition) -> QueryCondition {
        QueryCondition(.or(lhs.node, rhs.node))
    }
}

// MARK: - Rendering

extension QueryCondition.Node {
    /// The SQL of the condition: identifiers are quoted and values bound by
    /// Trellis's SQL literals.
    var sql: SQL {
        switch self {
        case .and(let nodes): return "(\(literal: nodes.map(\.sql).joined(separator: " AND ")))"
        case .or(let nodes): return "(\(literal: nodes.map(\.sql).joined(separator: " OR ")))"
        case .expression(let expression): return "(\(expression))"
        case .comparison(let comparison): return comparison.sql
        }
    }

    /// Calls `body` with each comparison, which it may change.
    mutating func updateComparisons(_ body: (inout QueryCondition<E>.Comparison) -> Void) {
        switch self {
        case .comparison(var comparison):
            body(&comparison)
            self = .comparison(comparison)
        case .and(var nodes):
            for index in nodes.indices { nodes[index].updateComparisons(body) }
            self = .and(nodes)
        case .or(var nodes):
            for index in nodes.indices { nodes[index].updateComparisons(body) }
            self = .or(nodes)
        case .expression:
            break
        }
    }
}

extension QueryCondition.Comparison {
    var sql: SQL {
        let column: SQL = "\(identifier: self.column)"
        // Strings compare without regard to ASCII case when asked.
        let collation: SQL = caseSensitive ? "" : " COLLATE NOCASE"
        let value = values.first ?? .null
        switch op {
        case .equal:
            return value.isNull ? "\(literal: column) IS NULL" : "\(literal: column) = \(value)\(literal: collation)"
        case .notEqual:
            return value.isNull ? "\(literal: column) IS NOT NULL" : "\(literal: column) IS NOT \(value)\(literal: collation)"
        case .less: return "\(literal: column) < \(value)\(literal: collation)"
        case .lessOrEqual: return "\(literal: column) <= \(value)\(literal: collation)"
        case .greater: return "\(literal: column) > \(value)\(literal: collation)"
        case .greaterOrEqual: return "\(literal: column) >= \(value)\(literal: collation)"
        case .between:
            let high = values.count > 1 ? values[1] : .null
            return "\(literal: column)\(literal: collation) BETWEEN \(value) AND \(high)"
        case .isIn, .isNotIn:
            guard !values.isEmpty else { return op == .isIn ? "0" : "1" }
            return "\(literal: column)\(literal: collation) \(sql: op == .isIn ? "IN" : "NOT IN") \(values)"
        case .startsWith, .endsWith, .contains:
            let text = String.fromDatabaseValue(value) ?? ""
            let prefix = op == .startsWith ? "" : (caseSensitive ? "*" : "%")
            let suffix = op == .endsWith ? "" : (caseSensitive ? "*" : "%")
            var pattern = ""
            if caseSensitive {
                // GLOB is case sensitive; its special characters match
                // themselves inside brackets.
                for character in text {
                    switch character {
                    case "*", "?", "[": pattern += "[\(character)]"
                    default: pattern.append(character)
                    }
                }
                return "\(literal: column) GLOB \(prefix + pattern + suffix)"
            }
            for character in text {
                switch character {
                case "%", "_", "\\": pattern += "\\\(character)"
                default: pattern.append(character)
                }
            }
            return "\(literal: column) LIKE \(prefix + pattern + suffix) ESCAPE '\\'"
        case .isNull: return "\(literal: column) IS NULL"
        case .isNotNull: return "\(literal: column) IS NOT NULL"
        }
    }
}

// MARK: - Conditions

extension Property where V: DatabaseValueConvertible {
    private func condition(_ op: QueryCondition<E>.Operator, _ values: [V], caseSensitive: Bool = true) -> QueryCondition<E> {
        QueryCondition(column, op, values.map(\.storedDatabaseValue), caseSensitive: caseSensitive)
    }

    /// The property equals `value` (`Person.age == 42`). A nil value
    /// matches nil properties.
    public func isEqual(to value: V) -> QueryCondition<E> { condition(.equal, [value]) }

    /// The property differs from `value` (`Person.age != 42`); nil
    /// properties match unless `value` is nil.
    public func isNotEqual(to value: V) -> QueryCondition<E> { condition(.notEqual, [value]) }

    /// The property is less than `value` (`Person.age < 18`).
    public func isLessThan(_ value: V) -> QueryCondition<E> { condition(.less, [value]) }

    /// The property is at most `value` (`Person.age <= 18`).
    public func isLessThanOrEqual(to value: V) -> QueryCondition<E> { condition(.lessOrEqual, [value]) }

    /// The property is greater than `value` (`Person.age > 18`).
    public func isGreaterThan(_ value: V) -> QueryCondition<E> { condition(.greater, [value]) }

    /// The property is at least `value` (`Person.age >= 18`).
    public func isGreaterThanOrEqual(to value: V) -> QueryCondition<E> { condition(.greaterOrEqual, [value]) }

    /// The property is between `lower` and `upper`, both included.
    public func isBetween(_ lower: V, and upper: V) -> QueryCondition<E> { condition(.between, [lower, upper]) }

    /// The property equals `value` give or take `tolerance`: floating-point
    /// values rarely compare equal.
    ///
    /// ```swift
    /// let query = try podBox.query { CocoaPod.rating.isEqual(to: 4.5, tolerance: 0.1) }.build()
    /// ```
    public func isEqual(to value: V, tolerance: V) -> QueryCondition<E> where V: BinaryFloatingPoint {
        condition(.between, [value - tolerance, value + tolerance])
    }

    /// The property is one of `values` (`Person.name ∈ ["Ann", "Bob"]`).
    public func isIn(_ values: [V]) -> QueryCondition<E> { condition(.isIn, values) }

    /// The property is none of `values` (`Person.name ∉ ["Ann", "Bob"]`).
    public func isNotIn(_ values: [V]) -> QueryCondition<E> { condition(.isNotIn, values) }

    /// The property is nil.
    public func isNil() -> QueryCondition<E> { condition(.isNull, []) }

    /// The property is not nil.
    public func isNotNil() -> QueryCondition<E> { condition(.isNotNull, []) }
}

extension Property where V: DatabaseValueConvertible & Comparable {
    /// The property is in `range` (`Person.age ∈ 10..<18`).
    public func isIn(_ range: Range<V>) -> QueryCondition<E> {
        isGreaterThanOrEqual(to: range.lowerBound) && isLessThan(range.upperBound)
    }

    /// The property is in `range` (`Person.age ∈ 10...17`).
    public func isIn(_ range: ClosedRange<V>) -> QueryCondition<E> {
        isBetween(range.lowerBound, and: range.upperBound)
    }

    /// The property is out of `range` (`Person.age ∉ 10..<18`).
    public func isNotIn(_ range: Range<V>) -> QueryCondition<E> {
        isLessThan(range.lowerBound) || isGreaterThanOrEqual(to: range.upperBound)
    }

    /// The property is out of `range` (`Person.age ∉ 10...17`).
    public func isNotIn(_ range: ClosedRange<V>) -> QueryCondition<E> {
        isLessThan(range.lowerBound) || isGreaterThan(range.upperBound)
    }
}

/// Ranges on optional properties: nil is in no range.
extension Property {
    /// The optional property is in `range` (`CocoaPod.stars ∈ 10..<18`).
    public func isIn<W: DatabaseValueConvertible & Comparable>(_ range: Range<W>) -> QueryCondition<E> where V == W? {
        isGreaterThanOrEqual(to: range.lowerBound) && isLessThan(range.upperBound)
    }

    /// The optional property is in `range`.
    public func isIn<W: DatabaseValueConvertible & Comparable>(_ range: ClosedRange<W>) -> QueryCondition<E> where V == W? {
        isBetween(range.lowerBound, and: range.upperBound)
    }

    /// The optional property is out of `range` (nil is out of it).
    public func isNotIn<W: DatabaseValueConvertible & Comparable>(_ range: Range<W>) -> QueryCondition<E> where V == W? {
        isLessThan(range.lowerBound) || isGreaterThanOrEqual(to: range.upperBound) || isNil()
    }

    /// The optional property is out of `range` (nil is out of it).
    public func isNotIn<W: DatabaseValueConvertible & Comparable>(_ range: ClosedRange<W>) -> QueryCondition<E> where V == W? {
        isLessThan(range.lowerBound) || isGreaterThan(range.upperBound) || isNil()
    }
}

/// Conditions on text: case sensitive unless told otherwise (`caseSensitive:
/// false` ignores the case of ASCII letters only).
public protocol QueryStringValue: DatabaseValueConvertible {}
extension String: QueryStringValue {}
extension Optional: QueryStringValue where Wrapped == String {}

extension Property where V: QueryStringValue {
    private func textCondition(_ op: QueryCondition<E>.Operator, _ values: [V], _ caseSensitive: Bool) -> QueryCondition<E> {
        QueryCondition(column, op, values.map(\.databaseValue), caseSensitive: caseSensitive)
    }

    /// The property equals `string`.
    public func isEqual(to string: V, caseSensitive: Bool) -> QueryCondition<E> { textCondition(.equal, [string], caseSensitive) }

    /// The property equals `string` (the label of older ObjectBox versions).
    public func isEqual(to string: V, caseSensitiveCompare: Bool) -> QueryCondition<E> { textCondition(.equal, [string], caseSensitiveCompare) }

    /// The property differs from `string`.
    public func isNotEqual(to string: V, caseSensitive: Bool) -> QueryCondition<E> { textCondition(.notEqual, [string], caseSensitive) }

    /// The property sorts before `string`.
    public func isLessThan(_ string: V, caseSensitive: Bool) -> QueryCondition<E> { textCondition(.less, [string], caseSensitive) }

    /// The property sorts after `string`.
    public func isGreaterThan(_ string: V, caseSensitive: Bool) -> QueryCondition<E> { textCondition(.greater, [string], caseSensitive) }

    /// The property is one of `strings`.
    public func isIn(_ strings: [V], caseSensitive: Bool) -> QueryCondition<E> { textCondition(.isIn, strings, caseSensitive) }

    /// The property starts with `prefix` (`Person.name.startsWith("An")`).
    public func startsWith(_ prefix: String, caseSensitive: Bool = true) -> QueryCondition<E> {
        QueryCondition(column, .startsWith, [prefix.databaseValue], caseSensitive: caseSensitive)
    }

    /// The property ends with `suffix`.
    public func endsWith(_ suffix: String, caseSensitive: Bool = true) -> QueryCondition<E> {
        QueryCondition(column, .endsWith, [suffix.databaseValue], caseSensitive: caseSensitive)
    }

    /// The property starts with `prefix`: the Swift spelling of
    /// ``startsWith(_:caseSensitive:)``.
    public func hasPrefix(_ prefix: String, caseSensitive: Bool = true) -> QueryCondition<E> {
        startsWith(prefix, caseSensitive: caseSensitive)
    }

    /// The property ends with `suffix`: the Swift spelling of
    /// ``endsWith(_:caseSensitive:)``.
    public func hasSuffix(_ suffix: String, caseSensitive: Bool = true) -> QueryCondition<E> {
        endsWith(suffix, caseSensitive: caseSensitive)
    }

    /// The property contains `string`.
    public func contains(_ string: String, caseSensitive: Bool = true) -> QueryCondition<E> {
        QueryCondition(column, .contains, [string.databaseValue], caseSensitive: caseSensitive)
    }
}

extension Property where V: DatabaseValueConvertible & Comparable {
    /// The date property is before `date` (`Person.birth < date`).
    public func isBefore(_ value: V) -> QueryCondition<E> { isLessThan(value) }

    /// The date property is after `date` (`Person.birth > date`).
    public func isAfter(_ value: V) -> QueryCondition<E> { isGreaterThan(value) }
}

// MARK: - Operators

/// `Person.age ∈ 18...65`, `Person.name ∈ ["Ann", "Bob"]`: see ``Property/isIn(_:)-(Array<V>)``.
infix operator ∈: ComparisonPrecedence
/// `Person.age ∉ 10..<18`: see ``Property/isNotIn(_:)-(Array<V>)``.
infix operator ∉: ComparisonPrecedence

// The operators of conditions: `Person.name == "Steve"`, `Person.age > 18`,
// `Person.age ∉ 10..<18`. They make the same conditions as the methods of
// `Property` (`isEqual(to:)`, `isGreaterThan(_:)`, `isNotIn(_:)`...).

public func == <E, V: DatabaseValueConvertible>(lhs: Property<E, V>, rhs: V) -> QueryCondition<E> { lhs.isEqual(to: rhs) }
public func != <E, V: DatabaseValueConvertible>(lhs: Property<E, V>, rhs: V) -> QueryCondition<E> { lhs.isNotEqual(to: rhs) }
public func < <E, V: DatabaseValueConvertible>(lhs: Property<E, V>, rhs: V) -> QueryCondition<E> { lhs.isLessThan(rhs) }
public func <= <E, V: DatabaseValueConvertible>(lhs: Property<E, V>, rhs: V) -> QueryCondition<E> { lhs.isLessThanOrEqual(to: rhs) }
public func > <E, V: DatabaseValueConvertible>(lhs: Property<E, V>, rhs: V) -> QueryCondition<E> { lhs.isGreaterThan(rhs) }
public func >= <E, V: DatabaseValueConvertible>(lhs: Property<E, V>, rhs: V) -> QueryCondition<E> { lhs.isGreaterThanOrEqual(to: rhs) }
public func ∈ <E, V: DatabaseValueConvertible>(lhs: Property<E, V>, rhs: [V]) -> QueryCondition<E> { lhs.isIn(rhs) }
public func ∉ <E, V: DatabaseValueConvertible>(lhs: Property<E, V>, rhs: [V]) -> QueryCondition<E> { lhs.isNotIn(rhs) }
public func ∈ <E, V: DatabaseValueConvertible & Comparable>(lhs: Property<E, V>, rhs: Range<V>) -> QueryCondition<E> { lhs.isIn(rhs) }
public func ∉ <E, V: DatabaseValueConvertible & Comparable>(lhs: Property<E, V>, rhs: Range<V>) -> QueryCondition<E> { lhs.isNotIn(rhs) }
public func ∈ <E, V: DatabaseValueConvertible & Comparable>(lhs: Property<E, V>, rhs: ClosedRange<V>) -> QueryCondition<E> { lhs.isIn(rhs) }
public func ∉ <E, V: DatabaseValueConvertible & Comparable>(lhs: Property<E, V>, rhs: ClosedRange<V>) -> QueryCondition<E> { lhs.isNotIn(rhs) }
public func ∈ <E, V: DatabaseValueConvertible & Comparable>(lhs: Property<E, V?>, rhs: Range<V>) -> QueryCondition<E> { lhs.isIn(rhs) }
public func ∉ <E, V: DatabaseValueConvertible & Comparable>(lhs: Property<E, V?>, rhs: Range<V>) -> QueryCondition<E> { lhs.isNotIn(rhs) }
public func ∈ <E, V: DatabaseValueConvertible & Comparable>(lhs: Property<E, V?>, rhs: ClosedRange<V>) -> QueryCondition<E> { lhs.isIn(rhs) }
public func ∉ <E, V: DatabaseValueConvertible & Comparable>(lhs: Property<E, V?>, rhs: ClosedRange<V>) -> QueryCondition<E> { lhs.isNotIn(rhs) }

// MARK: - Aliases

precedencegroup PropertyAliasPrecedence {
    higherThan: LogicalConjunctionPrecedence
    lowerThan: ComparisonPrecedence
}

infix operator .=: PropertyAliasPrecedence

/// Names a condition, so that ``Query/setParameter(_:to:)-(String,_)`` can
/// change its value when several conditions are on one property.
///
/// ```swift
/// let query = personBox.query { "minAge" .= Person.age > 18 && Person.name.startsWith("St") }
/// query.setParameter("minAge", to: 21)
/// ```
public func .= <E>(alias: String, condition: QueryCondition<E>) -> QueryCondition<E> {
    var condition = condition
    condition.node.updateComparisons { $0.alias = alias }
    return condition
}

// MARK: - Sorting

/// How `Query/ordered(by:flags:)` sorts.
public struct OrderFlags: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// From the greatest value to the least.
    public static let descending = OrderFlags(rawValue: 1)
    /// Strings sort with their case; by default the case of ASCII letters
    /// is ignored.
    public static let caseSensitive = OrderFlags(rawValue: 2)
    /// Nil values come last; by default they come first.
    public static let nullsLast = OrderFlags(rawValue: 4)
    /// Nil values sort as zero.
    public static let nullsZero = OrderFlags(rawValue: 8)
    /// Integers sort as unsigned: for `UInt64` properties whose values go
    /// above `Int64.max`.
    public static let unsigned = OrderFlags(rawValue: 16)
}

/// The type of a condition on one property in ObjectBox (`Person.age > 18`
/// is a `PropertyQueryCondition<Person, Int>`): here every condition is a
/// ``QueryCondition``, whatever its property.
///
/// ```swift
/// let adults: PropertyQueryCondition<Person, Int> = Person.age > 18
/// let query = try personBox.query { adults }.build()
/// ```
public typealias PropertyQueryCondition<E: Entity, V> = QueryCondition<E>
