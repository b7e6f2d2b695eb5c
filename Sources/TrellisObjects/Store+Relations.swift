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
            if let sample, try EntityEncoder.encode(sample).toManys.contains(where: { $0.property == backlink }) {
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
            candidates = try EntityEncoder.encode(sample).toOnes
                .filter { type(of: $0.relation).targetTableName == ownerTable }
                .map(\.column)
        }
        switch candidates.count {
        case 0:
            return .joinTable(name: Self.joinTableName(owner: ownerTable, property: property), ownerColumn: "ownerId", objectColumn: "targetId")
        case 1:
            return .backlink(column: candidates[0])
        default:
            throw ObjectStoreError(
                "Ambiguous foreign key from \(sourceTable) to \(ownerTable): name the ToOne property of \(property) in \(ownerTable).backlinks (one of \(candidates.joined(separator: ", ")))")
        }
    }

    /// The objects of a `ToMany` relation.
    func relatedObjects<Source: Entity>(_ source: Source.Type, owner: any Entity.Type, ownerId: Id, property: String) throws -> [Source] {
        try read { db in
            let sourceTable = Source.entityTableName.quotedDatabaseIdentifier
            guard try db.tableExists(Source.entityTableName) else { return [] }
            let sql: String
            switch try storage(Source.self, owner: owner, property: property, db: db, sample: nil) {
            case .backlink(let column):
                sql = "SELECT * FROM \(sourceTable) WHERE \(column.quotedDatabaseIdentifier) = ? ORDER BY \"id\""
            case .joinTable(let name, let ownerColumn, let objectColumn):
                guard try db.tableExists(name) else { return [] }
                sql = "SELECT \(sourceTable).* FROM \(sourceTable) JOIN \(name.quotedDatabaseIdentifier) j ON j.\(objectColumn.quotedDatabaseIdentifier) = \(sourceTable).\"id\" WHERE j.\(ownerColumn.quotedDatabaseIdentifier) = ? ORDER BY j.rowid"
            }
            let box = self.box(for: Source.self)
            return try Row.fetchAll(db, sql: sql, arguments: [Int64(bitPattern: ownerId)]).map { try box.decode($0) }
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
                guard let toOne = try EntityEncoder.encode(object).toOnes.first(where: { $0.column == column }) else {
                    throw ObjectStoreError("\(Source.entityTableName) has no ToOne property for column \(column)")
                }
                toOne.relation.targetId = ownerId
                if !context.isPutting(object) {
                    try box.put(object, db: db, context: context)
                }
            }
            let keep = Set(objects.map(\.id))
            if try db.tableExists(Source.entityTableName) {
                let table = Source.entityTableName.quotedDatabaseIdentifier
                let linked = try Int64.fetchAll(db, sql: "SELECT \"id\" FROM \(table) WHERE \(column.quotedDatabaseIdentifier) = ?",
                                                arguments: [Int64(bitPattern: ownerId)])
                for id in linked where !keep.contains(Id(bitPattern: id)) {
                    try db.execute(sql: "UPDATE \(table) SET \(column.quotedDatabaseIdentifier) = NULL WHERE \"id\" = ?", arguments: [id])
                }
            }
        case .joinTable(let name, let ownerColumn, let objectColumn):
            for object in objects where object.id == 0 && !context.isPutting(object) {
                try box.put(object, db: db, context: context)
            }
            let ownerTable = owner.entityTableName.quotedDatabaseIdentifier
            let sourceTable = Source.entityTableName.quotedDatabaseIdentifier
            let (ownerReference, objectReference) = ownerColumn == "ownerId" ? (ownerTable, sourceTable) : (sourceTable, ownerTable)
            try db.execute(sql: """
                CREATE TABLE IF NOT EXISTS \(name.quotedDatabaseIdentifier) (
                  "ownerId" INTEGER NOT NULL REFERENCES \(ownerReference)("id") ON DELETE CASCADE,
                  "targetId" INTEGER NOT NULL REFERENCES \(objectReference)("id") ON DELETE CASCADE,
                  PRIMARY KEY ("ownerId", "targetId"))
                """)
            try db.execute(sql: "DELETE FROM \(name.quotedDatabaseIdentifier) WHERE \(ownerColumn.quotedDatabaseIdentifier) = ?",
                           arguments: [Int64(bitPattern: ownerId)])
            let insert = try db.cachedStatement(sql: "INSERT OR IGNORE INTO \(name.quotedDatabaseIdentifier) (\(ownerColumn.quotedDatabaseIdentifier), \(objectColumn.quotedDatabaseIdentifier)) VALUES (?, ?)")
            for object in objects where object.id != 0 {
                try insert.execute(arguments: [Int64(bitPattern: ownerId), Int64(bitPattern: object.id)])
            }
        }
    }
}
