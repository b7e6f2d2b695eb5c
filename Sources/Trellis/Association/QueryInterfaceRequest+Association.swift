// Joining and prefetching associations from requests and record types.

extension QueryInterfaceRequest {
    /// Fetches each record with its associated record, and only the
    /// records that have one (`JOIN`).
    ///
    /// ```swift
    /// struct BookInfo: Decodable, FetchableRecord {
    ///     var book: Book
    ///     var author: Author
    /// }
    /// let infos = try Book.including(required: Book.author).asRequest(of: BookInfo.self).fetchAll(db)
    /// ```
    ///
    /// A to-many association gives one row for each associated record,
    /// under the singular key (`book` for `Author.books`).
    public func including<A: Association>(required association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        appending(association.impl.joinedAsToOne, kind: .oneRequired, selected: true)
    }

    /// Fetches each record with its associated record, if any (`LEFT JOIN`).
    /// A to-many association gives one row for each associated record.
    public func including<A: Association>(optional association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        appending(association.impl.joinedAsToOne, kind: .oneOptional, selected: true)
    }

    /// Fetches each record with all its associated records, with one more
    /// query per association.
    ///
    /// ```swift
    /// struct AuthorInfo: Decodable, FetchableRecord {
    ///     var author: Author
    ///     var books: [Book]
    /// }
    /// let infos = try Author.including(all: Author.books).asRequest(of: AuthorInfo.self).fetchAll(db)
    /// ```
    public func including<A: AssociationToMany>(all association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        appending(association.impl, kind: .all, selected: true)
    }

    /// Keeps the records that have an associated record, without selecting
    /// its columns.
    public func joining<A: Association>(required association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        appending(association.impl.joinedAsToOne, kind: .oneRequired, selected: false)
    }

    /// Joins an association without selecting its columns, keeping the
    /// records that have no associated record.
    public func joining<A: Association>(optional association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        appending(association.impl.joinedAsToOne, kind: .oneOptional, selected: false)
    }

    /// Appends the selected columns of a required associated record.
    ///
    /// ```swift
    /// Book.annotated(withRequired: Book.author.select(Column("name").forKey("authorName")))
    /// ```
    public func annotated<A: Association>(withRequired association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        annotating(association, kind: .oneRequired)
    }

    /// Appends the selected columns of an optional associated record.
    public func annotated<A: Association>(withOptional association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        annotating(association, kind: .oneOptional)
    }

    private func annotating<A: Association>(_ association: A, kind: SQLJoinedChild.Kind) -> Self {
        var impl = association.impl.joinedAsToOne
        let alias = impl.destination.alias.isExplicit ? impl.destination.alias : AliasIdentity(tableName: impl.destination.tableName, isExplicit: true)
        impl.destination.alias = alias
        let annotations = impl.destination.selection.map { $0.qualified(with: alias) }
        impl.destination.selection = []
        var request = appending(impl, kind: kind, selected: false)
        request.relation.selection += annotations
        return request
    }

    private func appending(_ impl: AssociationImpl, kind: SQLJoinedChild.Kind, selected: Bool) -> Self {
        var request = self
        request.relation = relation.appending(impl, kind: kind, selected: selected)
        return request
    }
}

extension TableRecord {
    /// A request of records with their associated record (`JOIN`).
    ///
    /// ```swift
    /// Book.including(required: Book.author)
    /// ```
    public static func including<A: Association>(required association: A) -> QueryInterfaceRequest<Self> where A.OriginRowDecoder == Self {
        all().including(required: association)
    }

    /// A request of records with their associated record, if any.
    public static func including<A: Association>(optional association: A) -> QueryInterfaceRequest<Self> where A.OriginRowDecoder == Self {
        all().including(optional: association)
    }

    /// A request of records with all their associated records.
    public static func including<A: AssociationToMany>(all association: A) -> QueryInterfaceRequest<Self> where A.OriginRowDecoder == Self {
        all().including(all: association)
    }

    /// A request of the records that have an associated record.
    public static func joining<A: Association>(required association: A) -> QueryInterfaceRequest<Self> where A.OriginRowDecoder == Self {
        all().joining(required: association)
    }

    /// A request of records joined with an optional association.
    public static func joining<A: Association>(optional association: A) -> QueryInterfaceRequest<Self> where A.OriginRowDecoder == Self {
        all().joining(optional: association)
    }

    /// A request of records annotated with columns of a required
    /// associated record.
    public static func annotated<A: Association>(withRequired association: A) -> QueryInterfaceRequest<Self> where A.OriginRowDecoder == Self {
        all().annotated(withRequired: association)
    }

    /// A request of records annotated with columns of an optional
    /// associated record.
    public static func annotated<A: Association>(withOptional association: A) -> QueryInterfaceRequest<Self> where A.OriginRowDecoder == Self {
        all().annotated(withOptional: association)
    }

    /// A request of records filtered by an association aggregate.
    ///
    /// ```swift
    /// let prolificAuthors = Author.having(Author.books.count >= 10)
    /// ```
    public static func having(_ predicate: some SQLExpressible) -> QueryInterfaceRequest<Self> {
        all().having(predicate)
    }
}
