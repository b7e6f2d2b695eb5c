/// An SQL expression that holds JSON: a ``JSONColumn``, or any expression
/// turned into JSON with `asJSON`.
///
/// JSON expressions give access to their components with the SQLite `->>`
/// and `->` operators:
///
/// ```swift
/// let address = JSONColumn("address")
///
/// // SELECT * FROM player WHERE address ->> 'country' = 'DE'
/// let germanPlayers = try Player.filter(address["country"] == "DE").fetchAll(db)
///
/// // SELECT address -> 'city' FROM player
/// let cities = try String.fetchAll(db, Player.select(address.jsonRepresentation(atPath: "city")))
/// ```
///
/// JSON functions embed them as JSON, not as strings:
///
/// ```swift
/// // SELECT JSON_ARRAY(JSON(address)) FROM player
/// Player.select(Database.jsonArray([address]))
/// ```
public protocol SQLJSONExpressible: SQLSpecificExpressible, SQLSelectable, SQLOrderingTerm {}

extension SQLJSONExpressible {
    public var sqlSelection: SQLSelection { .expression(sqlExpression.jsonValue, alias: nil) }
    public var sqlOrdering: SQLOrdering { SQLOrdering(expression: sqlExpression.jsonValue, direction: nil) }

    /// The SQL value at `path`, with the `->>` operator: a string, a
    /// number, NULL, or the JSON text of an object or an array.
    ///
    /// ```swift
    /// let address = JSONColumn("address")
    /// // address ->> 'country'
    /// address["country"]
    /// // address ->> '$.country'
    /// address["$.country"]
    /// ```
    ///
    /// The path is a key (`"country"`), an array index (`0`), or a full
    /// [JSON path](https://www.sqlite.org/json1.html#path_arguments)
    /// (`"$.tags[0]"`).
    public subscript(_ path: some SQLExpressible) -> SQLExpression {
        SQLExpression(.binary("->>", sqlExpression.jsonValue, path.sqlExpression))
    }

    /// The JSON representation of the value at `path`, with the `->`
    /// operator: strings are quoted, and objects and arrays are JSON that
    /// JSON functions embed as JSON.
    ///
    /// ```swift
    /// let address = JSONColumn("address")
    /// // address -> 'city', "Paris" with its quotes
    /// address.jsonRepresentation(atPath: "city")
    /// ```
    public func jsonRepresentation(atPath path: some SQLExpressible) -> SQLExpression {
        SQLExpression(.json(SQLExpression(.binary("->", sqlExpression.jsonValue, path.sqlExpression)), .functionResult))
    }

    /// The SQL value at `path`, with `JSON_EXTRACT`.
    ///
    /// ```swift
    /// let info = JSONColumn("info")
    /// // JSON_EXTRACT(info, '$.score')
    /// info.jsonExtract(atPath: "$.score")
    /// ```
    public func jsonExtract(atPath path: some SQLExpressible) -> SQLExpression {
        Database.jsonExtract(self, atPath: path)
    }

    /// A JSON array of the values at `paths`, with `JSON_EXTRACT`.
    ///
    /// ```swift
    /// let info = JSONColumn("info")
    /// // JSON_EXTRACT(info, '$.score', '$.bonus')
    /// info.jsonExtract(atPaths: ["$.score", "$.bonus"])
    /// ```
    public func jsonExtract<C: Collection>(atPaths paths: C) -> SQLExpression where C.Element: SQLExpressible {
        Database.jsonExtract(self, atPaths: paths)
    }
}
