/// Whether ``Database/dumpTables(_:format:tableHeader:stableOrder:to:)``
/// prints the name of each table above its rows.
///
/// ```swift
/// try db.dumpTables(["player"], tableHeader: .always)
/// // player
/// // 1|Arthur|1000
/// ```
public enum DumpTableHeaderOptions: Sendable {
    /// Table names print when there are several tables.
    case automatic
    /// Table names always print.
    case always
}
