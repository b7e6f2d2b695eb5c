/// A list of `count` SQL parameter placeholders, separated by commas, for
/// raw SQL that takes a variable number of arguments.
///
/// ```swift
/// let ids = [1, 2, 3]
/// // SELECT * FROM player WHERE id IN (?,?,?)
/// let players = try Player.fetchAll(db,
///     sql: "SELECT * FROM player WHERE id IN (\(databaseQuestionMarks(count: ids.count)))",
///     arguments: StatementArguments(ids))
/// ```
///
/// SQL interpolation writes the placeholders for you: `"... WHERE id IN \(ids)"`.
/// - Parameter count: the number of placeholders; zero gives an empty string.
public func databaseQuestionMarks(count: Int) -> String {
    guard count > 0 else { return "" }
    var result = "?"
    result.reserveCapacity(2 * count - 1)
    for _ in 1..<count { result += ",?" }
    return result
}
