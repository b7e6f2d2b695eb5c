import Trellis

/// How a `ToMany` relation is stored.
enum ToManyStorage {
    /// A backlink: the foreign key column of the source table.
    case backlink(column: String)
    /// A many-to-many relation: a join table, the column that holds the
    /// owner's id, and the column that holds the related object's id.
    case joinTable(name: String, ownerColumn: String, objectColumn: String)
}

extension Store {
    /// The join table of a standalone many-to-many `ToMany`.
    static func joinTableName(owner: String, property: String) -> String {
        "\(owner)_\(property)"
    }

    /// Finds how the `ToMany` property `property` of `Owner` is stored,
    /// from the schema, or from an object of the relation when the schema
    /// does not tell yet.
    func storage<Source: Entity>(
        _ source: Source.Type, owner: any Entity.Type, property: String, db: Database, sample: Source?) throws -> ToManyStorage
    {
        let sourceTable = Source.entityTableName
        let ownerTable = owner.entityTableName
        if let backlink = owner.backlinks[property] {
            let reverseJoinTable = Self.joinTableName(owner: sourceTable, property: backlink)
            if try db.tableExists(reverseJoinTable) {
                return .joinTable(name: reverseJoinTable, ownerColumn: "targetId", objectColumn: "ownerId")
            }
            if let sample, try EntityEncoder.encode(sample, coding: box(for: Source.self).coding).toManys.contains(where: { $0.property == backlink }) {
                return .joinTable(name: reverseJoinTable, ownerColumn: "targetId", objectColumn: "ownerId")
            }
            return .backlink(column: backlink + "Id")
        }
        var candidates: [String] = []
        if try db.tableExists(sourceTable) {
            candidates = try db.foreignKeys(on: sourceTable)
                .filter { $0.destinationTable == ownerTable }
                .flatMap(\.originColumns)
        } else if let sample {
            candidates = try EntityEncoder.encode(sample, coding: box(for: Source.self).coding).toOnes
                .filter { type(of: $0.relation).targetTableName == ownerTable }
                .map(\.column)
        }
        switch candidates.count {
        case 0:
            return .joinTable(name: Self.joinTableName(owner: ownerTable, property: property), ownerColumn: "ownerId", objectColumn: "targetId")
        case 1:
            return .backlink(column: candidates[0])
        default:
            throw ObjectBoxError.illegalState(message: 
                "Ambiguous foreign key from \(sourceTable) to \(ownerTable): name the ToOne property of \(property) in \(ownerTable).backlinks (one of \(candidates.joined(separator: ", ")))")
        }
    }

    /// The objects of a `ToMany` relation: by id for a backlink, in the
    /// order they were linked for a join table.
    func relatedObjects<Source: Entity>(_ source: Source.Type, owner: any Entity.Type, ownerId: Id, property: String) throws -> [Source] {
        try read { db in
            let sourceTable = Source.entityTableName
            guard try db.tableExists(sourceTable) else { return [] }
            let box = self.box(for: Source.self)
            let ownerValue = Int64(bitPattern: ownerId)
            switch try storage(Source.self, owner: owner, property: property, db: db, sample: nil) {
            case .backlink(let column):
                let request = Table(sourceTable).filter(Column(column) == ownerValue).order(Column("id"))
                return try box.decodeAll(request.makePreparedRequest(db).statement)
            case .joinTable(let name, let ownerColumn, let objectColumn):
                guard try db.tableExists(name) else { return [] }
                let ids = try Table(name)
                    .filter(Column(ownerColumn) == ownerValue)
                    .order(Column.rowID)
                    .select(Column(objectColumn), as: Int64.self)
                    .fetchAll(db)
                let objects = try box.decodeAll(Table(sourceTable).filter(keys: ids).makePreparedRequest(db).statement)
                let byId = Dictionary(objects.map { ($0.id, $0) }) { first, _ in first }
                return ids.compactMap { byId[Id(bitPattern: $0)] }
            }
        }
    }

    /// Writes the objects of a `ToMany` relation after its owner was put.
    func saveRelation<Source: Entity & AnyObject>(
        _ objects: [Source], owner: any Entity.Type, ownerId: Id, property: String, db: Database, context: PutContext) throws
    {
        let box = self.box(for: Source.self)
        switch try storage(Source.self, owner: owner, property: property, db: db, sample: objects.first) {
        case .backlink(let column):
            for object in objects {
                guard let toOne = try EntityEncoder.encode(object, coding: box.coding).toOnes.first(where: { $0.column == column }) else {
                    throw ObjectBoxError.illegalState(message: "\(Source.entityTableName) has no ToOne property for column \(column)")
                }
                toOne.relation.targetId = ownerId
                if !context.isPutting(object) {
                    try box.put(object, db: db, context: context)
                }
            }
            let keep = Set(objects.map(\.id))
            let sourceTable = Table(Source.entityTableName)
            if try db.tableExists(sourceTable.tableName) {
                let linked = try sourceTable
                    .filter(Column(column) == Int64(bitPattern: ownerId))
                    .select(Column("id"), as: Int64.self)
                    .fetchAll(db)
                let unlinked = linked.filter { !keep.contains(Id(bitPattern: $0)) }
                if !unlinked.isEmpty {
                    try sourceTable.filter(keys: unlinked).updateAll(db, Column(column).set(to: nil))
                }
            }
        case .joinTable(let name, let ownerColumn, let objectColumn):
            for object in objects where object.id == 0 && !context.isPutting(object) {
                try box.put(object, db: db, context: context)
            }
            if try !db.tableExists(name) {
                let ownerTable = owner.entityTableName
                let sourceTable = Source.entityTableName
                let (ownerReference, objectReference) = ownerColumn == "ownerId" ? (ownerTable, sourceTable) : (sourceTable, ownerTable)
                try db.create(table: name) { t in
                    t.column("ownerId", .integer).notNull().references(ownerReference, column: "id", onDelete: .cascade)
                    t.column("targetId", .integer).notNull().references(objectReference, column: "id", onDelete: .cascade)
                    t.primaryKey(["ownerId", "targetId"])
                }
            }
            try Table(name).filter(Column(ownerColumn) == Int64(bitPattern: ownerId)).deleteAll(db)
            let insert = try Table(name).insertStatement(db, columns: [ownerColumn, objectColumn], onConflict: .ignore)
            for object in objects where object.id != 0 {
                try insert.execute(values: [Int64(bitPattern: ownerId).databaseValue, Int64(bitPattern: object.id).databaseValue])
            }
        }
    }
}
