/// The storage of an association. You don't use it directly.
public struct _AssociationStorage: @unchecked Sendable {
    var impl: AssociationImpl
}

/// A link between two record types, built from a foreign key: the base of
/// requests that join or prefetch associated records.
///
/// ```swift
/// struct Book: TableRecord {
///     static let author = belongsTo(Author.self)
/// }
/// struct Author: TableRecord {
///     static let books = hasMany(Book.self)
/// }
/// let request = Book.including(required: Book.author)
/// let authors = Author.including(all: Author.books)
/// ```
///
/// Associations are refined like requests: `filter`, `order`, `select`,
/// `forKey`, `aliased`, and nested `including` / `joining`.
public protocol Association<OriginRowDecoder, RowDecoder>: DerivableRequest, Sendable {
    /// The record type the association starts from.
    associatedtype OriginRowDecoder
    /// The associated record type.
    associatedtype RowDecoder

    /// The storage of the association.
    var _storage: _AssociationStorage { get set }

    /// Creates an association from its storage.
    init(_storage: _AssociationStorage)
}

/// An association to one record: `belongsTo`, `hasOne`, `hasOne(through:)`.
public protocol AssociationToOne: Association {}

/// An association to several records: `hasMany`, `hasMany(through:)`.
public protocol AssociationToMany: Association {}

extension Association {
    var impl: AssociationImpl {
        get { _storage.impl }
        set { _storage.impl = newValue }
    }

    private func mapDestination(_ transform: (inout SQLRelation) -> Void) -> Self {
        var association = self
        transform(&association.impl.destination)
        return association
    }

    /// The association under another key, in requests and decoded rows.
    ///
    /// ```swift
    /// static let writtenBooks = hasMany(Book.self).forKey("writtenBooks")
    /// ```
    public func forKey(_ key: String) -> Self {
        var association = self
        association.impl.explicitKey = key
        return association
    }

    /// The association under the name of a coding key.
    public func forKey(_ key: some CodingKey) -> Self {
        forKey(key.stringValue)
    }

    /// Keeps the associated records that match `predicate`.
    ///
    /// ```swift
    /// Author.including(all: Author.books.filter(Column("year") > 2000))
    /// ```
    public func filter(_ predicate: some SQLExpressible) -> Self {
        mapDestination { $0.filters.append(predicate.sqlExpression) }
    }

    /// Keeps the associated records that match an SQL condition.
    public func filter(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        filter(SQL(sql: sql, arguments: arguments))
    }

    /// Keeps the associated records that match an SQL literal.
    public func filter(literal sqlLiteral: SQL) -> Self {
        filter(sqlLiteral)
    }

    /// Sorts the associated records.
    public func order(_ orderings: any SQLOrderingTerm...) -> Self {
        order(orderings)
    }

    /// Sorts the associated records.
    public func order(_ orderings: [any SQLOrderingTerm]) -> Self {
        mapDestination {
            $0.orderings = orderings.map(\.sqlOrdering)
            $0.isReversed = false
        }
    }

    /// Sorts the associated records with SQL.
    public func order(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        order([SQL(sql: sql, arguments: arguments)])
    }

    /// Reverses the ordering of the associated records.
    public func reversed() -> Self {
        mapDestination { $0.isReversed.toggle() }
    }

    /// Removes the ordering of the associated records.
    public func unordered() -> Self {
        mapDestination {
            $0.orderings = []
            $0.isReversed = false
        }
    }

    /// Selects columns of the associated records.
    ///
    /// ```swift
    /// Book.including(required: Book.author.select(Column("name")))
    /// ```
    public func select(_ selection: any SQLSelectable...) -> Self {
        select(selection)
    }

    /// Selects columns of the associated records.
    public func select(_ selection: [any SQLSelectable]) -> Self {
        mapDestination { $0.selection = selection.map(\.sqlSelection) }
    }

    /// Appends columns to the selection of the associated records.
    public func annotated(with selection: [any SQLSelectable]) -> Self {
        mapDestination { $0.selection += selection.map(\.sqlSelection) }
    }

    /// Gives the associated table a name, so that other parts of the
    /// request can refer to its columns.
    ///
    /// ```swift
    /// let authorAlias = TableAlias<Author>()
    /// Book.joining(required: Book.author.aliased(authorAlias))
    ///     .filter(authorAlias[Column("name")] == "Orwell")
    /// ```
    public func aliased<T>(_ alias: TableAlias<T>) -> Self {
        mapDestination { relation in
            if !alias.identity.adopt(tableName: relation.tableName) {
                relation.buildError = DatabaseError(
                    resultCode: .SQLITE_MISUSE,
                    message: "A TableAlias must not be used to refer to multiple tables: \(alias.identity.tableName) and \(relation.tableName)")
            }
            relation.alias = alias.identity
        }
    }

    /// Limits the number of associated records (of each parent, with
    /// `including(all:)`).
    ///
    /// ```swift
    /// // The three latest books of each author
    /// Author.including(all: Author.books.order(Column("year").desc).limit(3))
    /// ```
    public func limit(_ limit: Int, offset: Int? = nil) -> Self {
        mapDestination { $0.limit = (limit, offset) }
    }

    // MARK: Nested associations

    /// Includes a to-one association of the associated records.
    ///
    /// ```swift
    /// Book.including(required: Book.author.including(optional: Author.country))
    /// ```
    public func including<A: AssociationToOne>(required association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        mapDestination { $0 = $0.appending(association.impl, kind: .oneRequired, selected: true) }
    }

    /// Includes an optional to-one association of the associated records.
    public func including<A: AssociationToOne>(optional association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        mapDestination { $0 = $0.appending(association.impl, kind: .oneOptional, selected: true) }
    }

    /// Includes all records of a to-many association of the associated
    /// records.
    public func including<A: AssociationToMany>(all association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        mapDestination { $0 = $0.appending(association.impl, kind: .all, selected: true) }
    }

    /// Joins an association of the associated records, without selecting
    /// its columns.
    public func joining<A: Association>(required association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        mapDestination { $0 = $0.appending(association.impl, kind: .oneRequired, selected: false) }
    }

    /// Joins an optional association of the associated records, without
    /// selecting its columns.
    public func joining<A: Association>(optional association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        mapDestination { $0 = $0.appending(association.impl, kind: .oneOptional, selected: false) }
    }
}
