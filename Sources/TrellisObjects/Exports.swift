// `import TrellisObjects` is enough to use the query interface of Trellis
// in queries (`Column("name").like("A%")`), and the `DatabaseQueue` that a
// store can share with records.
@_exported import Trellis
