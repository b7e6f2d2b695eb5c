import Trellis

// The schema, read from PostgreSQL's catalog, with the values that
// describe an SQLite schema. A table name is resolved as the statements
// resolve it: by the connection's `search_path`, case-sensitively (Trellis
// quotes every identifier it writes).

// They answer `Database`'s `tableExists(_:)`, `columns(in:)`,
// `primaryKey(_:)` and `foreignKeys(on:)`.

extension PostgresServerConnection {
    /// Whether a table (or a view) exists.
    func tableExists(_ name: String) throws -> Bool {
        let rows = try self.rows("SELECT to_regclass(quote_ident(?)) IS NOT NULL AS found", arguments: [name])
        return try rows.first?.decode(Bool.self, atIndex: 0) ?? false
    }

    /// Whether a view exists.
    func viewExists(_ name: String) throws -> Bool {
        let rows = try self.rows("""
            SELECT relkind IN ('v', 'm') FROM pg_catalog.pg_class WHERE oid = to_regclass(quote_ident(?))
            """, arguments: [name])
        return try rows.first?.decode(Bool.self, atIndex: 0) ?? false
    }

    /// The columns of a table, in the order of their definition. Throws a
    /// `no such table` error when the table does not exist.
    func columns(in table: String) throws -> [ColumnInfo] {
        let rows = try self.rows("""
            SELECT a.attname AS name,
                   format_type(a.atttypid, a.atttypmod) AS type,
                   a.attnotnull AS notnull,
                   pg_get_expr(d.adbin, d.adrelid) AS dflt,
                   a.attnum - 1 AS cid,
                   COALESCE((SELECT k.position
                             FROM pg_catalog.pg_index i,
                                  unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, position)
                             WHERE i.indrelid = a.attrelid AND i.indisprimary AND k.attnum = a.attnum), 0) AS pk
            FROM pg_catalog.pg_attribute a
            LEFT JOIN pg_catalog.pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
            WHERE a.attrelid = to_regclass(quote_ident(?)) AND a.attnum > 0 AND NOT a.attisdropped
            ORDER BY a.attnum
            """, arguments: [table])
        guard !rows.isEmpty else {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "no such table: \(table)")
        }
        return try rows.map { row in
            try ColumnInfo(
                name: row.decode(forColumn: "name"), declaredType: row.decode(forColumn: "type"),
                notNull: row.decode(forColumn: "notnull"), defaultSQL: row.decodeIfPresent(forColumn: "dflt"),
                primaryKeyPosition: row.decode(forColumn: "pk"), index: row.decode(forColumn: "cid"))
        }
    }

    /// The primary key of a table. Throws when the table does not exist,
    /// or has no primary key: a PostgreSQL table has no rowid to stand in
    /// for one.
    func primaryKey(_ table: String) throws -> PrimaryKeyInfo {
        let keyColumns = try columns(in: table)
            .filter { $0.primaryKeyIndex > 0 }
            .sorted { $0.primaryKeyIndex < $1.primaryKeyIndex }
        guard !keyColumns.isEmpty else {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "table \(table) has no primary key")
        }
        return PrimaryKeyInfo(explicitColumns: keyColumns.map(\.name))
    }

    /// The foreign keys of a table, in the order of their creation, with
    /// their column pairs in the order of their definition. Throws when the
    /// table does not exist.
    func foreignKeys(on table: String) throws -> [ForeignKeyInfo] {
        guard try tableExists(table) else {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "no such table: \(table)")
        }
        let rows = try self.rows("""
            SELECT c.oid::int8 AS constraint_id,
                   (SELECT relname FROM pg_catalog.pg_class WHERE oid = c.confrelid) AS destination_table,
                   (SELECT attname FROM pg_catalog.pg_attribute WHERE attrelid = c.conrelid AND attnum = k.origin) AS origin,
                   (SELECT attname FROM pg_catalog.pg_attribute WHERE attrelid = c.confrelid AND attnum = k.destination) AS destination,
                   c.confdeltype::text AS on_delete,
                   c.confupdtype::text AS on_update
            FROM pg_catalog.pg_constraint c,
                 unnest(c.conkey, c.confkey) WITH ORDINALITY AS k(origin, destination, ordinal)
            WHERE c.contype = 'f' AND c.conrelid = to_regclass(quote_ident(?))
            ORDER BY c.oid, k.ordinal
            """, arguments: [table])
        var result: [ForeignKeyInfo] = []
        var current: (
            constraint: Int64, destination: String, mapping: [(origin: String, destination: String)],
            onDelete: Database.ForeignKeyAction?, onUpdate: Database.ForeignKeyAction?)?
        func flush() {
            guard let current else { return }
            result.append(ForeignKeyInfo(
                identifier: result.count, destination: current.destination, columnMapping: current.mapping,
                deleteAction: current.onDelete, updateAction: current.onUpdate))
        }
        for row in rows {
            let constraint: Int64 = try row.decode(forColumn: "constraint_id")
            let pair: (origin: String, destination: String) = (try row.decode(forColumn: "origin"), try row.decode(forColumn: "destination"))
            if current?.constraint == constraint {
                current?.mapping.append(pair)
            } else {
                flush()
                current = (
                    constraint, try row.decode(forColumn: "destination_table"), [pair],
                    Self.foreignKeyAction(try row.decode(forColumn: "on_delete")),
                    Self.foreignKeyAction(try row.decode(forColumn: "on_update")))
            }
        }
        flush()
        return result
    }

    /// The action of `pg_constraint.confdeltype` or `confupdtype`: nil for
    /// `NO ACTION` ("a"), as SQLite's introspection reports it.
    private static func foreignKeyAction(_ code: String) -> Database.ForeignKeyAction? {
        switch code {
        case "c": .cascade
        case "r": .restrict
        case "n": .setNull
        case "d": .setDefault
        default: nil
        }
    }
}
