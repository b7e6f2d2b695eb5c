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

    /// Embeds the definition of a common table expression (`WITH`) that
    /// the association's filters and selection can use, replacing a
    /// previous one of the same name. A request that joins the association
    /// defines it in its own `WITH` clause; a request that prefetches it
    /// (`including(all:)`) defines it in the query of the associated
    /// records.
    ///
    /// ```swift
    /// let specialCTE = CommonTableExpression(named: "special", sql: "SELECT id FROM book WHERE isSpecial")
    /// let specialBooks = Author.books
    ///     .with(specialCTE)
    ///     .filter(sql: "id IN special")
    ///     .forKey("specialBooks")
    /// let authors = try Author.including(all: specialBooks).fetchAll(db)
    /// ```
    public func with<T>(_ cte: CommonTableExpression<T>) -> Self {
        mapDestination { relation in
            relation.commonTableExpressions.removeAll { $0.tableName.lowercased() == cte.tableName.lowercased() }
            relation.commonTableExpressions.append(cte.definition)
        }
    }

    /// Keeps the associated records that match `predicate`.
    ///
    /// ```swift
    /// Author.including(all: Author.books.filter(Column("year") > 2000))
    /// ```
    public func filter(_ predicate: some SQLExpressible) -> Self {
        mapDestination { $0.filters.append(predicate.sqlExpression) }
    }

    /// Sorts the associated records.
    public func order(_ orderings: [any SQLOrderingTerm]) -> Self {
        mapDestination {
            $0.orderings = orderings.map(\.sqlOrdering)
            $0.isReversed = false
        }
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
        mapDestination {
            $0.selection = selection.map(\.sqlSelection)
            $0.isSelectionExplicit = true
        }
    }

    /// Appends columns to the selection of the associated records.
    public func annotated(with selection: [any SQLSelectable]) -> Self {
        mapDestination {
            $0.selection += selection.map(\.sqlSelection)
            $0.isSelectionExplicit = true
        }
    }

    /// Removes duplicate associated records, with `including(all:)`.
    ///
    /// ```swift
    /// // The kinds of books of each author
    /// let bookKinds = Author.books.select(Column("kind")).distinct().forKey("bookKinds")
    /// let request = Author.including(all: bookKinds)
    /// ```
    ///
    /// A distinct association can only be included with `including(all:)`:
    /// joined to one, it makes the request throw when it runs.
    public func distinct() -> Self {
        mapDestination { $0.isDistinct = true }
    }

    /// Groups the associated records of each parent, with
    /// `including(all:)`.
    ///
    /// ```swift
    /// // The year of the latest book of each kind, for each author
    /// let kindInfos = Author.books
    ///     .select(Column("kind"), max(Column("year")).forKey("maxYear"))
    ///     .group(Column("kind"))
    ///     .forKey("bookKindInfos")
    /// let request = Author.including(all: kindInfos)
    /// ```
    ///
    /// A grouped association can only be included with `including(all:)`:
    /// joined to one, it makes the request throw when it runs.
    public func group(_ expressions: any SQLExpressible...) -> Self {
        group(expressions)
    }

    /// Groups the associated records of each parent.
    public func group(_ expressions: [any SQLExpressible]) -> Self {
        mapDestination { $0.groupBy = expressions.map(\.sqlExpression) }
    }

    /// Keeps the groups of associated records that match `predicate`;
    /// without grouping, keeps the associated records that match it, as
    /// association aggregates do.
    ///
    /// ```swift
    /// // The books of each author that won an award
    /// let awardedBooks = Author.books
    ///     .having(Book.awards.isEmpty == false)
    ///     .forKey("awardedBooks")
    /// let request = Author.including(all: awardedBooks)
    /// ```
    public func having(_ predicate: some SQLExpressible) -> Self {
        mapDestination { $0.having.append(predicate.sqlExpression) }
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
        mapDestination { $0.adoptAlias(alias.identity) }
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
    public func including<A: Association>(required association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        mapDestination { $0 = $0.appending(association.impl.joinedAsToOne, kind: .oneRequired, selected: true) }
    }

    /// Includes an optional to-one association of the associated records.
    public func including<A: Association>(optional association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        mapDestination { $0 = $0.appending(association.impl.joinedAsToOne, kind: .oneOptional, selected: true) }
    }

    /// Includes all records of a to-many association of the associated
    /// records.
    public func including<A: AssociationToMany>(all association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        mapDestination { $0 = $0.appending(association.impl, kind: .all, selected: true) }
    }

    /// Joins an association of the associated records, without selecting
    /// its columns.
    public func joining<A: Association>(required association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        mapDestination { $0 = $0.appending(association.impl.joinedAsToOne, kind: .oneRequired, selected: false) }
    }

    /// Joins an optional association of the associated records, without
    /// selecting its columns.
    public func joining<A: Association>(optional association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        mapDestination { $0 = $0.appending(association.impl.joinedAsToOne, kind: .oneOptional, selected: false) }
    }
}

extension Association where RowDecoder: TableRecord {
    /// Selects one column of the associated records, built from their
    /// columns.
    ///
    /// ```swift
    /// Book.annotated(withOptional: Book.author.select { $0.name.forKey("authorName") })
    /// ```
    ///
    /// - Throws: The error thrown by the closure.
    public func select(_ selection: (RowDecoder.DatabaseComponents) throws -> any SQLSelectable) rethrows -> Self {
        select([try selection(RowDecoder.Columns.self)])
    }

    /// Appends a column built from the columns of the associated records
    /// to their selection.
    ///
    /// ```swift
    /// Author.including(all: Author.books.annotated { ($0.price * 2).forKey("doublePrice") })
    /// ```
    ///
    /// - Throws: The error thrown by the closure.
    public func annotated(with selection: (RowDecoder.DatabaseComponents) throws -> any SQLSelectable) rethrows -> Self {
        annotated(with: [try selection(RowDecoder.Columns.self)])
    }

    /// Appends columns built from the columns of the associated records to
    /// their selection.
    ///
    /// - Throws: The error thrown by the closure.
    public func annotated(with selection: (RowDecoder.DatabaseComponents) throws -> [any SQLSelectable]) rethrows -> Self {
        annotated(with: try selection(RowDecoder.Columns.self))
    }

    /// Groups the associated records by their columns.
    ///
    /// ```swift
    /// Author.books.select { [$0.kind, max($0.year)] }.group { $0.kind }
    /// ```
    ///
    /// - Throws: The error thrown by the closure.
    public func group(_ expression: (RowDecoder.DatabaseComponents) throws -> any SQLExpressible) rethrows -> Self {
        group([try expression(RowDecoder.Columns.self)])
    }

    /// Groups the associated records by their columns.
    ///
    /// - Throws: The error thrown by the closure.
    public func group(_ expressions: (RowDecoder.DatabaseComponents) throws -> [any SQLExpressible]) rethrows -> Self {
        group(try expressions(RowDecoder.Columns.self))
    }

    /// Keeps the groups of associated records that match a predicate built
    /// from their columns.
    ///
    /// - Throws: The error thrown by the closure.
    public func having(_ predicate: (RowDecoder.DatabaseComponents) throws -> some SQLExpressible) rethrows -> Self {
        having(try predicate(RowDecoder.Columns.self))
    }
}
