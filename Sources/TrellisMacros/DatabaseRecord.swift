@_exported import Trellis

/// Writes a record's `init(row:)`, `encode(to:)` and `Columns` from its
/// stored properties, at compile time.
///
/// ```swift
/// import TrellisMacros
///
/// @DatabaseRecord
/// struct Player: FetchableRecord, PersistableRecord {
///     var id: Int64?
///     var name: String
///     @Column("player_score") var score: Int
/// }
///
/// let bestPlayers = try Player.filter { $0.score > 1000 }.fetchAll(db)
/// ```
///
/// The generated code is what a person would write by hand, so a macro
/// record runs as fast as a hand-written one, with no runtime reflection.
/// It follows the rules of Codable records:
///
/// - a property reads and writes the column of its name, or of its
///   `CodingKeys` case, or of its `@Column("...")` attribute; a property
///   missing from `CodingKeys` keeps its default value;
/// - an optional property reads NULL or a missing column as nil;
/// - a `DatabaseValueConvertible` property is stored as its database
///   value; dates, UUIDs and data follow the record's strategies
///   (`databaseDateEncodingStrategy(for:)`...);
/// - another `Codable` property is stored as JSON text;
/// - a `FetchableRecord` property reads the scope of its key (a joined
///   association: `var author: Author`), or else the row itself
///   (`var book: Book` in `BookInfo`); an array of records reads the
///   prefetched rows of its key (`var books: [Book]`, from
///   `including(all:)`).
///
/// The records of an array property of a struct are decoded by the
/// prefetch of `including(all:)` as its rows come, straight from the
/// statement, from the first fetch on: no row is copied for `init(row:)`
/// to decode later.
///
/// A struct gets `init(row:)` if it adopts `FetchableRecord`, `encode(to:)`
/// if it adopts `EncodableRecord`, `PersistableRecord` or
/// `MutablePersistableRecord`, and `Columns` if it adopts `TableRecord` or a
/// persistable protocol and declares no `Columns` of its own (a type that
/// names none of these protocols gets all three). The members the type
/// writes itself, such as `didInsert(_:)`, are left alone. On a `Codable`
/// type, the macro's members win over the Codable ones.
@attached(
    extension, conformances: _PrefetchedRecordsDecoding,
    names: named(Columns), named(init(row:)), named(encode(to:)), named(_prefetchedRecordsDecoder(forKey:)))
@attached(member, names: named(init(row:)), named(encode(to:)))
public macro DatabaseRecord() = #externalMacro(module: "TrellisMacrosPlugin", type: "DatabaseRecordMacro")

/// The column of a record property, when it is not the property name.
///
/// ```swift
/// @DatabaseRecord
/// struct Player: FetchableRecord, PersistableRecord {
///     var id: Int64?
///     @Column("full_name") var name: String
/// }
/// ```
@attached(peer)
public macro Column(_ name: String) = #externalMacro(module: "TrellisMacrosPlugin", type: "ColumnMacro")
