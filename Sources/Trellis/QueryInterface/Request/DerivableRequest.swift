/// A request that can be refined: query interface requests such as
/// `Author.all()`, and associations such as `Book.author`.
///
/// Extend it to share refinements between requests and associations:
///
/// ```swift
/// extension DerivableRequest<Author> {
///     func filter(country: String) -> Self {
///         filter { $0.country == country }
///     }
///     func orderedByName() -> Self {
///         order { $0.name }
///     }
/// }
///
/// let frenchAuthors = Author.all().filter(country: "FR").orderedByName()
/// let books = Book.joining(required: Book.author.filter(country: "FR"))
/// ```
public protocol DerivableRequest<RowDecoder> {
    /// The type of the fetched records.
    associatedtype RowDecoder

    /// Keeps the rows that match `predicate`.
    func filter(_ predicate: some SQLExpressible) -> Self

    /// Sorts the rows, replacing any previous ordering.
    func order(_ orderings: [any SQLOrderingTerm]) -> Self

    /// Reverses the ordering.
    func reversed() -> Self

    /// Removes the ordering.
    func unordered() -> Self

    /// Selects columns, replacing any previous selection.
    func select(_ selection: [any SQLSelectable]) -> Self

    /// Appends columns to the selection.
    func annotated(with selection: [any SQLSelectable]) -> Self

    /// Gives the table a name in the generated SQL.
    func aliased<T>(_ alias: TableAlias<T>) -> Self

    /// Limits the number of rows.
    func limit(_ limit: Int, offset: Int?) -> Self

    /// Includes a required to-one association.
    func including<A: AssociationToOne>(required association: A) -> Self where A.OriginRowDecoder == RowDecoder

    /// Includes an optional to-one association.
    func including<A: AssociationToOne>(optional association: A) -> Self where A.OriginRowDecoder == RowDecoder

    /// Includes all records of a to-many association.
    func including<A: AssociationToMany>(all association: A) -> Self where A.OriginRowDecoder == RowDecoder

    /// Joins a required association without selecting its columns.
    func joining<A: Association>(required association: A) -> Self where A.OriginRowDecoder == RowDecoder

    /// Joins an optional association without selecting its columns.
    func joining<A: Association>(optional association: A) -> Self where A.OriginRowDecoder == RowDecoder
}

extension DerivableRequest {
    /// Keeps the rows that match an SQL condition.
    public func filter(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        filter(SQL(sql: sql, arguments: arguments))
    }

    /// Sorts the rows.
    public func order(_ orderings: any SQLOrderingTerm...) -> Self {
        order(orderings)
    }

    /// Selects columns.
    public func select(_ selection: any SQLSelectable...) -> Self {
        select(selection)
    }

    /// Appends columns to the selection.
    public func annotated(with selection: any SQLSelectable...) -> Self {
        annotated(with: selection)
    }
}

extension DerivableRequest where RowDecoder: TableRecord {
    /// Keeps the rows that match a predicate built from the record's
    /// columns.
    public func filter(_ predicate: (RowDecoder.DatabaseComponents) throws -> some SQLExpressible) rethrows -> Self {
        filter(try predicate(RowDecoder.Columns.self))
    }

    /// Sorts by the record's columns.
    public func order(_ orderings: (RowDecoder.DatabaseComponents) throws -> any SQLOrderingTerm) rethrows -> Self {
        order([try orderings(RowDecoder.Columns.self)])
    }

    /// Sorts by the record's columns.
    public func order(_ orderings: (RowDecoder.DatabaseComponents) throws -> [any SQLOrderingTerm]) rethrows -> Self {
        order(try orderings(RowDecoder.Columns.self))
    }

    /// Selects the record's columns.
    public func select(_ selection: (RowDecoder.DatabaseComponents) throws -> [any SQLSelectable]) rethrows -> Self {
        select(try selection(RowDecoder.Columns.self))
    }
}

extension QueryInterfaceRequest: DerivableRequest {}
