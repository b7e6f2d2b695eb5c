/// An object that a fetch keeps with a statement row while it steps
/// through the rows of the statement, such as the Codable decoder of a
/// record type: it is told when the fetch ends.
@usableFromInline
protocol RowReusable: AnyObject {
    /// The fetch has ended: the object drops what it kept for the next
    /// rows, so that no reference cycle outlives the fetch.
    func endReuse()
}

/// What a fetch reuses from one row of its statement to the next: the
/// scope rows, which are windows over the statement whatever its current
/// row, and objects of the layers above Core, by key.
///
/// A connection serves one access at a time, on one thread: the state is
/// not checked for exclusive access at run time.
@usableFromInline
final class RowReuse {
    /// The scope rows, by position in the layout's `scopesTree`.
    @exclusivity(unchecked) var scopeRows: [Row?]

    @exclusivity(unchecked) private var objects: [(key: ObjectIdentifier, object: any RowReusable)] = []

    /// Whether the row moves from row to row of its ``RowBatch`` (the
    /// answer of a database server), as a statement row moves with its
    /// statement: a copy of it must not move with it.
    let stepsThroughBatch: Bool

    init(scopeCount: Int, stepsThroughBatch: Bool = false) {
        scopeRows = Array(repeating: nil, count: scopeCount)
        self.stepsThroughBatch = stepsThroughBatch
    }

    /// A reuse for copied rows, which keeps objects such as decoders but
    /// no scope rows (see ``Row/withReuse(_:_:)``).
    static func forCopiedRows() -> RowReuse {
        RowReuse(scopeCount: 0)
    }

    /// The scope row at `treeIndex` in the layout's `scopesTree`, if an
    /// earlier row of the fetch made it.
    @inline(__always)
    func scopeRow(at treeIndex: Int) -> Row? {
        treeIndex < scopeRows.count ? scopeRows[treeIndex] : nil
    }

    /// The object kept for `key`, if any, unretained: the reuse keeps it
    /// until the fetch ends. A retained object would cost a retain and a
    /// release for each record that a fetch decodes with it.
    @usableFromInline
    func object(forKey key: ObjectIdentifier) -> Unmanaged<AnyObject>? {
        for index in objects.indices where objects[index].key == key {
            return .passUnretained(objects[index].object)
        }
        return nil
    }

    /// Keeps `object` for `key`, until the fetch ends.
    @usableFromInline
    func keep(_ object: any RowReusable, forKey key: ObjectIdentifier) {
        objects.append((key, object))
    }

    /// Tells the kept objects, and those of the scope rows, that the fetch
    /// has ended, and forgets them.
    func end() {
        for row in scopeRows {
            row?.endReuse()
        }
        for entry in objects {
            entry.object.endReuse()
        }
        scopeRows = []
        objects = []
    }
}
