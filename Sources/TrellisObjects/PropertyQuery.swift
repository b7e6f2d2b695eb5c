import Trellis

/// The values of one property of the objects that match a query: see
/// `Query/property(_:)`. Nil values are left out, unless
/// ``with(nullValue:)`` gives a value to read instead.
///
/// ```swift
/// let ages = try personBox.query { Person.name.startsWith("A") }.build().property(Person.age)
/// let oldest: Int = try ages.max()
/// let total: Int64 = try ages.sum()
/// ```
public struct PropertyQuery<E: Entity, V: DatabaseValueConvertible> {
    let query: Query<E>
    let column: String
    var isDistinct = false
    /// Whether distinct strings compare without regard to ASCII case.
    var ignoresCase = false
    /// The value that nil values read as, when they are not left out.
    var nullValue: V?

    private var selection: SQLExpression {
        let column = Column(column).sqlExpression
        return isDistinct && ignoresCase ? column.collating(.nocase) : column
    }

    /// The query, returning each value once.
    public func distinct(_ distinct: Bool = true) -> PropertyQuery {
        var query = self
        query.isDistinct = distinct
        return query
    }

    /// The query of distinct values, comparing strings with or without
    /// regard to ASCII case.
    public func distinct(caseSensitiveCompare: Bool) -> PropertyQuery {
        var query = self
        query.isDistinct = true
        query.ignoresCase = !caseSensitiveCompare
        return query
    }

    /// The query, reading nil values as `nullValue` instead of leaving
    /// them out.
    ///
    /// ```swift
    /// let ages = try personBox.query().build().property(Person.age).with(nullValue: 0).find()
    /// ```
    public func with(nullValue: V) -> PropertyQuery {
        var query = self
        query.nullValue = nullValue
        return query
    }

    /// The query, reading nil strings as `nullString` instead of leaving
    /// them out.
    ///
    /// ```swift
    /// let nicknames = try personBox.query().build().property(Person.nickname).with(nullString: "none").find()
    /// ```
    public func with(nullString: String) -> PropertyQuery where V == String {
        with(nullValue: nullString)
    }

    // MARK: Values

    /// The values, in the order of the query.
    ///
    /// - Throws: ``ObjectBoxError/illegalState(message:)`` if the store is
    ///   closed, or if a parameter was set for a condition the query does not
    ///   have; a `DatabaseError` if SQLite fails. Values that do not convert to
    ///   the requested type are left out, not thrown.
    public func find() throws -> [V] {
        try find(as: V.self)
    }

    /// The only value, or nil when there is none; throws
    /// ``ObjectBoxError/nonUniqueResult(message:)`` when there are several,
    /// as ``Query/findUnique()`` does.
    ///
    /// - Throws: ``ObjectBoxError/nonUniqueResult(message:)`` if several values
    ///   match; otherwise the errors of `find()`.
    public func findUnique() throws -> V? {
        try findUnique(as: V.self)
    }

    // ObjectBox's typed accessors: the values read as the named type,
    // whatever the declared type of the property.

    /// The values as strings.
    ///
    /// - Throws: ``ObjectBoxError/illegalState(message:)`` if the store is
    ///   closed, or if a parameter was set for a condition the query does not
    ///   have; a `DatabaseError` if SQLite fails. Values that do not convert to
    ///   the requested type are left out, not thrown.
    public func findStrings() throws -> [String] { try find(as: String.self) }
    /// The first value as a string, or nil.
    ///
    /// - Throws: ``ObjectBoxError/illegalState(message:)`` if the store is
    ///   closed, or if a parameter was set for a condition the query does not
    ///   have; a `DatabaseError` if SQLite fails. Values that do not convert to
    ///   the requested type are left out, not thrown.
    public func findString() throws -> String? { try find(as: String.self, limit: 1).first }
    /// The only value as a string, or nil; throws when there are several.
    ///
    /// - Throws: ``ObjectBoxError/nonUniqueResult(message:)`` if several values
    ///   match; otherwise the errors of `find()`.
    public func findUniqueString() throws -> String? { try findUnique(as: String.self) }
    /// The values as integers.
    ///
    /// - Throws: ``ObjectBoxError/illegalState(message:)`` if the store is
    ///   closed, or if a parameter was set for a condition the query does not
    ///   have; a `DatabaseError` if SQLite fails. Values that do not convert to
    ///   the requested type are left out, not thrown.
    public func findIntegers() throws -> [Int] { try find(as: Int.self) }
    /// The values as 64-bit integers.
    ///
    /// - Throws: ``ObjectBoxError/illegalState(message:)`` if the store is
    ///   closed, or if a parameter was set for a condition the query does not
    ///   have; a `DatabaseError` if SQLite fails. Values that do not convert to
    ///   the requested type are left out, not thrown.
    public func findInt64s() throws -> [Int64] { try find(as: Int64.self) }
    /// The only value as a 64-bit integer, or nil; throws when there are several.
    ///
    /// - Throws: ``ObjectBoxError/nonUniqueResult(message:)`` if several values
    ///   match; otherwise the errors of `find()`.
    public func findUniqueInt64() throws -> Int64? { try findUnique(as: Int64.self) }
    /// The values as doubles.
    ///
    /// - Throws: ``ObjectBoxError/illegalState(message:)`` if the store is
    ///   closed, or if a parameter was set for a condition the query does not
    ///   have; a `DatabaseError` if SQLite fails. Values that do not convert to
    ///   the requested type are left out, not thrown.
    public func findDoubles() throws -> [Double] { try find(as: Double.self) }
    /// The only value as a double, or nil; throws when there are several.
    ///
    /// - Throws: ``ObjectBoxError/nonUniqueResult(message:)`` if several values
    ///   match; otherwise the errors of `find()`.
    public func findUniqueDouble() throws -> Double? { try findUnique(as: Double.self) }
    /// The values as floats.
    ///
    /// - Throws: ``ObjectBoxError/illegalState(message:)`` if the store is
    ///   closed, or if a parameter was set for a condition the query does not
    ///   have; a `DatabaseError` if SQLite fails. Values that do not convert to
    ///   the requested type are left out, not thrown.
    public func findFloats() throws -> [Float] { try find(as: Float.self) }

    private func find<T: DatabaseValueConvertible>(as type: T.Type, limit: Int = 0) throws -> [T] {
        try query.values(selection, column: column, distinct: isDistinct, nullValue: nullValue.flatMap { T.fromDatabaseValue($0.databaseValue) },
                         as: T.self, limit: limit)
    }

    private func findUnique<T: DatabaseValueConvertible>(as type: T.Type) throws -> T? {
        let values = try find(as: T.self, limit: 2)
        if values.count > 1 {
            throw ObjectBoxError.nonUniqueResult(message: "findUnique: several values of \(E.entityName).\(column) match the query")
        }
        return values.first
    }

    // MARK: Aggregates

    /// The number of values.
    ///
    /// - Throws: ``ObjectBoxError/illegalState(message:)`` if the store is
    ///   closed, or if a parameter was set for a condition the query does not
    ///   have; a `DatabaseError` if SQLite fails.
    public func count() throws -> Int {
        Int.fromDatabaseValue(try aggregate(isDistinct ? Trellis.count(distinct: Column(column)) : Trellis.count(Column(column)))) ?? 0
    }

    /// The greatest value, or nil when there is none (for strings and
    /// dates; numbers read 0 instead).
    ///
    /// - Throws: ``ObjectBoxError/illegalState(message:)`` if the store is
    ///   closed, or if a parameter was set for a condition the query does not
    ///   have; a `DatabaseError` if SQLite fails.
    public func max() throws -> V? {
        V.fromDatabaseValue(try aggregate(Trellis.max(Column(column))))
    }

    /// The least value, or nil when there is none (for strings and dates;
    /// numbers read 0 instead).
    ///
    /// - Throws: ``ObjectBoxError/illegalState(message:)`` if the store is
    ///   closed, or if a parameter was set for a condition the query does not
    ///   have; a `DatabaseError` if SQLite fails.
    public func min() throws -> V? {
        V.fromDatabaseValue(try aggregate(Trellis.min(Column(column))))
    }

    /// The greatest number, or 0 when there is none, as in ObjectBox.
    ///
    /// ```swift
    /// let maxAge: Int = try personBox.query().build().property(Person.age).max()
    /// ```
    ///
    /// - Throws: ``ObjectBoxError/illegalState(message:)`` if the store is
    ///   closed, or if a parameter was set for a condition the query does not
    ///   have; a `DatabaseError` if SQLite fails.
    public func max() throws -> V where V: Numeric {
        V.fromDatabaseValue(try aggregate(Trellis.max(Column(column)))) ?? 0
    }

    /// The least number, or 0 when there is none, as in ObjectBox.
    ///
    /// - Throws: ``ObjectBoxError/illegalState(message:)`` if the store is
    ///   closed, or if a parameter was set for a condition the query does not
    ///   have; a `DatabaseError` if SQLite fails.
    public func min() throws -> V where V: Numeric {
        V.fromDatabaseValue(try aggregate(Trellis.min(Column(column)))) ?? 0
    }

    /// The sum of the values (0 when there is none).
    ///
    /// - Throws: ``ObjectBoxError/illegalState(message:)`` if the store is
    ///   closed, or if a parameter was set for a condition the query does not
    ///   have; a `DatabaseError` if SQLite fails.
    public func sum() throws -> V where V: Numeric {
        V.fromDatabaseValue(try aggregate(sumExpression)) ?? 0
    }

    /// The sum of integer values, as a 64-bit integer (0 when there is
    /// none), as in ObjectBox. Throws when it overflows.
    ///
    /// ```swift
    /// let total: Int64 = try personBox.query().build().property(Person.age).sum()
    /// ```
    ///
    /// - Throws: ``ObjectBoxError/illegalState(message:)`` if the store is
    ///   closed, or if a parameter was set for a condition the query does not
    ///   have; a `DatabaseError` if SQLite fails.
    public func sum() throws -> Int64 where V: FixedWidthInteger {
        Int64.fromDatabaseValue(try aggregate(sumExpression)) ?? 0
    }

    /// The sum of floating-point values, as a double (0 when there is
    /// none), as in ObjectBox.
    ///
    /// - Throws: ``ObjectBoxError/illegalState(message:)`` if the store is
    ///   closed, or if a parameter was set for a condition the query does not
    ///   have; a `DatabaseError` if SQLite fails.
    public func sum() throws -> Double where V: BinaryFloatingPoint {
        Double.fromDatabaseValue(try aggregate(sumExpression)) ?? 0
    }

    /// The sum of the values as an integer (0 when there is none).
    ///
    /// - Throws: ``ObjectBoxError/illegalState(message:)`` if the store is
    ///   closed, or if a parameter was set for a condition the query does not
    ///   have; a `DatabaseError` if SQLite fails.
    public func sumInt() throws -> Int {
        Int.fromDatabaseValue(try aggregate(sumExpression)) ?? 0
    }

    /// The average of the values (0 when there is none).
    ///
    /// - Throws: ``ObjectBoxError/illegalState(message:)`` if the store is
    ///   closed, or if a parameter was set for a condition the query does not
    ///   have; a `DatabaseError` if SQLite fails.
    public func average() throws -> Double {
        Double.fromDatabaseValue(try aggregate(averageExpression)) ?? 0
    }

    /// The average of the values, rounded down to an integer (0 when there
    /// is none). Throws when it does not fit in an `Int` (an infinite
    /// average of doubles, for example).
    ///
    /// - Throws: ``ObjectBoxError/illegalState(message:)`` if the average does
    ///   not fit in an `Int`; otherwise the errors of `average()`.
    public func averageInt() throws -> Int {
        let average = try average().rounded(.down)
        guard let value = Int(exactly: average) else {
            throw ObjectBoxError.illegalState(message: "the average \(average) of \(column) does not fit in an Int")
        }
        return value
    }

    /// `SUM(column)`, or `SUM(DISTINCT column)` for a distinct query.
    private var sumExpression: SQLExpression {
        isDistinct ? distinctAggregate("SUM") : Trellis.sum(Column(column))
    }

    /// `AVG(column)`, or `AVG(DISTINCT column)` for a distinct query.
    private var averageExpression: SQLExpression {
        isDistinct ? distinctAggregate("AVG") : Trellis.average(Column(column))
    }

    /// An aggregate of the distinct values, which the query interface
    /// writes for `COUNT` only.
    private func distinctAggregate(_ function: String) -> SQLExpression {
        let literal: SQL = "\(sql: function)(DISTINCT \(Column(column)))"
        return literal.sqlExpression
    }

    private func aggregate(_ expression: SQLExpression) throws -> DatabaseValue {
        try query.aggregate(expression)
    }
}
