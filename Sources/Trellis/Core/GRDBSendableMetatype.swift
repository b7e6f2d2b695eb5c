#if compiler(>=6.2)
/// `SendableMetatype` where the compiler knows it (Swift 6.2 and later),
/// and `Any` before: a constraint that code shared with GRDB can name in
/// both cases, for types whose metatype crosses concurrency domains.
///
/// ```swift
/// func fetchInBackground<T: FetchableRecord & GRDBSendableMetatype>(_ type: T.Type) { ... }
/// ```
public typealias GRDBSendableMetatype = SendableMetatype
#else
/// `Any` before Swift 6.2, which introduces `SendableMetatype`.
public typealias GRDBSendableMetatype = Any
#endif
