import Foundation
import Testing
import Trellis

/// Map files: an MBTiles file (tiles as BLOBs, keys made by unique
/// indexes of nullable columns, the deduplicated form whose `tiles` is a
/// view), and a GeoPackage (`gpkg_*` tables, a feature table whose
/// triggers call SpatiaLite's `ST_*` functions, which are not loaded
/// here, and the R*Tree that those triggers fill).
@Suite struct GeoPackageTests {
    static let mbtilesScript = #"""
        CREATE TABLE metadata (name text, value text);
        CREATE UNIQUE INDEX name on metadata (name);
        CREATE TABLE map (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_id TEXT, grid_id TEXT);
        CREATE UNIQUE INDEX map_index ON map (zoom_level, tile_column, tile_row);
        CREATE TABLE images (tile_data blob, tile_id text);
        CREATE UNIQUE INDEX images_id ON images (tile_id);
        CREATE VIEW tiles AS
            SELECT
                map.zoom_level AS zoom_level,
                map.tile_column AS tile_column,
                map.tile_row AS tile_row,
                images.tile_data AS tile_data
            FROM map
            JOIN images ON images.tile_id = map.tile_id;
        INSERT INTO metadata VALUES ('name', 'OSM Bright'), ('format', 'png'), ('bounds', '-180.0,-85,180,85'), ('minzoom', '0'), ('maxzoom', '1'), ('json', '{"vector_layers":[]}');
        INSERT INTO images VALUES (x'89504E470D0A1A0A0000000D49484452', 'a1'), (x'89504E470D0A1A0A00', 'b2');
        INSERT INTO map VALUES (0, 0, 0, 'a1', NULL), (1, 0, 0, 'b2', NULL), (1, 1, 0, 'b2', NULL), (1, 0, 1, 'b2', NULL);
        """#

    static let geopackageScript = #"""
        PRAGMA application_id = 1196444487;
        PRAGMA user_version = 10300;
        CREATE TABLE gpkg_spatial_ref_sys (srs_name TEXT NOT NULL,srs_id INTEGER NOT NULL PRIMARY KEY,organization TEXT NOT NULL,organization_coordsys_id INTEGER NOT NULL,definition  TEXT NOT NULL,description TEXT);
        CREATE TABLE gpkg_contents (table_name TEXT NOT NULL PRIMARY KEY,data_type TEXT NOT NULL,identifier TEXT UNIQUE,description TEXT DEFAULT '',last_change DATETIME NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),min_x DOUBLE, min_y DOUBLE, max_x DOUBLE, max_y DOUBLE,srs_id INTEGER,CONSTRAINT fk_gc_r_srs_id FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys(srs_id));
        CREATE TABLE gpkg_geometry_columns (table_name TEXT NOT NULL,column_name TEXT NOT NULL,geometry_type_name TEXT NOT NULL,srs_id INTEGER NOT NULL,z TINYINT NOT NULL,m TINYINT NOT NULL,CONSTRAINT pk_geom_cols PRIMARY KEY (table_name, column_name),CONSTRAINT uk_gc_table_name UNIQUE (table_name),CONSTRAINT fk_gc_tn FOREIGN KEY (table_name) REFERENCES gpkg_contents(table_name),CONSTRAINT fk_gc_srs FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys (srs_id));
        CREATE TABLE gpkg_tile_matrix_set (table_name TEXT NOT NULL PRIMARY KEY,srs_id INTEGER NOT NULL,min_x DOUBLE NOT NULL,min_y DOUBLE NOT NULL,max_x DOUBLE NOT NULL,max_y DOUBLE NOT NULL,CONSTRAINT fk_gtms_table_name FOREIGN KEY (table_name) REFERENCES gpkg_contents(table_name),CONSTRAINT fk_gtms_srs FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys (srs_id));
        CREATE TABLE gpkg_tile_matrix (table_name TEXT NOT NULL,zoom_level INTEGER NOT NULL,matrix_width INTEGER NOT NULL,matrix_height INTEGER NOT NULL,tile_width INTEGER NOT NULL,tile_height INTEGER NOT NULL,pixel_x_size DOUBLE NOT NULL,pixel_y_size DOUBLE NOT NULL,CONSTRAINT pk_ttm PRIMARY KEY (table_name, zoom_level),CONSTRAINT fk_tmm_table_name FOREIGN KEY (table_name) REFERENCES gpkg_contents(table_name));
        CREATE TABLE gpkg_extensions (table_name TEXT,column_name TEXT,extension_name TEXT NOT NULL,definition TEXT NOT NULL,scope TEXT NOT NULL,CONSTRAINT ge_tce UNIQUE (table_name, column_name, extension_name));
        CREATE TRIGGER 'gpkg_tile_matrix_zoom_level_insert' BEFORE INSERT ON 'gpkg_tile_matrix' FOR EACH ROW BEGIN SELECT RAISE(ABORT, 'insert on table ''gpkg_tile_matrix'' violates constraint: zoom_level cannot be less than 0') WHERE (NEW.zoom_level < 0); END;
        INSERT INTO gpkg_spatial_ref_sys VALUES ('Undefined cartesian SRS', -1, 'NONE', -1, 'undefined', 'undefined cartesian coordinate reference system'),
          ('Undefined geographic SRS', 0, 'NONE', 0, 'undefined', 'undefined geographic coordinate reference system'),
          ('WGS 84 geodetic', 4326, 'EPSG', 4326, 'GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563]],PRIMEM["Greenwich",0],UNIT["degree",0.0174532925199433]]', 'longitude/latitude coordinates in decimal degrees on the WGS 84 spheroid');
        CREATE TABLE "poi" ( "fid" INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, "geom" POINT, "name" TEXT(80), "kind" MEDIUMINT);
        INSERT INTO gpkg_contents (table_name, data_type, identifier, description, last_change, min_x, min_y, max_x, max_y, srs_id) VALUES ('poi', 'features', 'poi', '', '2024-02-29T17:05:09.123Z', 2.29, 48.85, 2.35, 48.86, 4326);
        INSERT INTO gpkg_geometry_columns VALUES ('poi', 'geom', 'POINT', 4326, 0, 0);
        INSERT INTO gpkg_extensions VALUES ('poi', 'geom', 'gpkg_rtree_index', 'http://www.geopackage.org/spec120/#extension_rtree', 'write-only');
        CREATE VIRTUAL TABLE "rtree_poi_geom" USING rtree(id, minx, maxx, miny, maxy);
        CREATE TRIGGER "rtree_poi_geom_insert" AFTER INSERT ON "poi" WHEN (new."geom" NOT NULL AND NOT ST_IsEmpty(NEW."geom")) BEGIN INSERT OR REPLACE INTO "rtree_poi_geom" VALUES (NEW."fid",ST_MinX(NEW."geom"), ST_MaxX(NEW."geom"),ST_MinY(NEW."geom"), ST_MaxY(NEW."geom")); END;
        CREATE TRIGGER "rtree_poi_geom_update1" AFTER UPDATE OF "geom" ON "poi" WHEN OLD."fid" = NEW."fid" AND (NEW."geom" NOTNULL AND NOT ST_IsEmpty(NEW."geom")) BEGIN INSERT OR REPLACE INTO "rtree_poi_geom" VALUES (NEW."fid",ST_MinX(NEW."geom"), ST_MaxX(NEW."geom"),ST_MinY(NEW."geom"), ST_MaxY(NEW."geom")); END;
        CREATE TRIGGER "rtree_poi_geom_update2" AFTER UPDATE OF "geom" ON "poi" WHEN OLD."fid" = NEW."fid" AND (NEW."geom" ISNULL OR ST_IsEmpty(NEW."geom")) BEGIN DELETE FROM "rtree_poi_geom" WHERE id = OLD."fid"; END;
        CREATE TRIGGER "rtree_poi_geom_delete" AFTER DELETE ON "poi" WHEN old."geom" NOT NULL BEGIN DELETE FROM "rtree_poi_geom" WHERE id = OLD."fid"; END;
        INSERT INTO poi (fid, geom, name, kind) VALUES
          (1, x'47500001E6100000010100000085EB51B81E45024066666666666E4840', 'Tour Eiffel', 3),
          (2, x'47500001E61000000101000000CDCCCCCCCCCC0240C3F5285C8F6D4840', 'Notre-Dame', 3),
          (3, NULL, 'Somewhere', NULL);
        """#

    /// SpatiaLite's functions, as the writing application had them: the
    /// point of a GeoPackage blob without envelope.
    static var spatialFunctions: [DatabaseFunction] {
        @Sendable func coordinate(_ values: [DatabaseValue], _ offset: Int) -> Double? {
            guard let blob = Data.fromDatabaseValue(values[0]), blob.count >= 29 else { return nil }
            let bytes = Array(blob[(blob.startIndex + offset)..<(blob.startIndex + offset + 8)])
            return Double(bitPattern: bytes.enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) })
        }
        return [
            DatabaseFunction("ST_IsEmpty", argumentCount: 1, pure: true) { Data.fromDatabaseValue($0[0])?.count ?? 0 < 29 },
            DatabaseFunction("ST_MinX", argumentCount: 1, pure: true) { coordinate($0, 13) },
            DatabaseFunction("ST_MaxX", argumentCount: 1, pure: true) { coordinate($0, 13) },
            DatabaseFunction("ST_MinY", argumentCount: 1, pure: true) { coordinate($0, 21) },
            DatabaseFunction("ST_MaxY", argumentCount: 1, pure: true) { coordinate($0, 21) },
        ]
    }

    struct Metadata: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "metadata"
        var name: String
        var value: String
    }

    struct MapEntry: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "map"
        static let image = belongsTo(Image.self, using: ForeignKey(["tile_id"], to: ["tile_id"]))
        var zoomLevel: Int
        var tileColumn: Int
        var tileRow: Int
        var tileId: String
        enum CodingKeys: String, CodingKey { case zoomLevel = "zoom_level", tileColumn = "tile_column", tileRow = "tile_row", tileId = "tile_id" }
    }

    struct Image: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "images"
        static let entries = hasMany(MapEntry.self, using: ForeignKey(["tile_id"], to: ["tile_id"]))
        var tileData: Data
        var tileId: String
        enum CodingKeys: String, CodingKey { case tileData = "tile_data", tileId = "tile_id" }
    }

    struct Tile: Codable, FetchableRecord, TableRecord, Equatable {
        static let databaseTableName = "tiles"
        var zoomLevel: Int
        var tileColumn: Int
        var tileRow: Int
        var tileData: Data
        enum CodingKeys: String, CodingKey { case zoomLevel = "zoom_level", tileColumn = "tile_column", tileRow = "tile_row", tileData = "tile_data" }
    }

    @Test func mbtilesReadTheirTilesAndMetadata() throws {
        struct ImageUse: Decodable, FetchableRecord {
            var tileId: String
            var entryCount: Int
            enum CodingKeys: String, CodingKey { case tileId = "tile_id", entryCount }
        }
        let file = try RealDatabaseFile(Self.mbtilesScript)
        try file.open().write { (db) throws in
            #expect(try db.table("metadata", hasUniqueKey: ["name"]))
            #expect(try db.primaryKey("metadata").columns == ["rowid"])
            #expect(try Metadata.fetchOne(db, key: ["name": "format"])?.value == "png")
            #expect(try Metadata.fetchOne(db, key: ["name": "json"])?.value == #"{"vector_layers":[]}"#)
            try Metadata(name: "maxzoom", value: "2").upsert(db)
            #expect(try Metadata.fetchCount(db) == 6)
            #expect(try Metadata.fetchOne(db, key: ["name": "maxzoom"])?.value == "2")
            let duplicate = #expect(throws: DatabaseError.self) { try Metadata(name: "name", value: "again").insert(db) }
            #expect(duplicate?.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE)
            #expect(duplicate?.message == "UNIQUE constraint failed: metadata.name")

            let tile = try #require(try Tile.filter(Column("zoom_level") == 0).fetchOne(db))
            #expect(tile.tileData == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, 0x49, 0x48, 0x44, 0x52]))
            #expect(try Tile.filter(Column("zoom_level") == 1).fetchCount(db) == 3)
            // A view has no key.
            let key = #expect(throws: DatabaseError.self) { try Tile.fetchOne(db, key: ["zoom_level": 0, "tile_column": 0, "tile_row": 0]) }
            #expect(key?.message == "table tiles has no unique key on column(s) tile_column, tile_row, zoom_level")
            #expect(try MapEntry.fetchOne(db, key: ["zoom_level": 1, "tile_column": 1, "tile_row": 0])?.tileId == "b2")
            #expect(try MapEntry.including(required: MapEntry.image).filter(Column("zoom_level") == 1).fetchCount(db) == 3)
            let uses = try Image.annotated(with: Image.entries.count.forKey("entryCount")).order(Column("tile_id")).asRequest(of: ImageUse.self).fetchAll(db)
            #expect(uses.map(\.entryCount) == [1, 3])
            #expect(try Image.deleteOne(db, key: ["tile_id": "a1"]))
            #expect(try Tile.fetchCount(db) == 3)
        }
    }

    struct Content: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "gpkg_contents"
        static let geometryColumns = hasOne(GeometryColumn.self, key: "geometryColumns")
        static let srs = belongsTo(SpatialRefSys.self, key: "srs")
        var tableName: String
        var dataType: String
        var identifier: String?
        var lastChange: Date
        var minX: Double?
        var srsId: Int?
        enum CodingKeys: String, CodingKey {
            case tableName = "table_name", dataType = "data_type", identifier, lastChange = "last_change", minX = "min_x", srsId = "srs_id"
        }
    }

    struct GeometryColumn: Codable, FetchableRecord, TableRecord {
        static let databaseTableName = "gpkg_geometry_columns"
        var tableName: String
        var columnName: String
        var geometryTypeName: String
        var z: Int8
        enum CodingKeys: String, CodingKey { case tableName = "table_name", columnName = "column_name", geometryTypeName = "geometry_type_name", z }
    }

    struct SpatialRefSys: Codable, FetchableRecord, TableRecord {
        static let databaseTableName = "gpkg_spatial_ref_sys"
        var srsName: String
        var srsId: Int
        enum CodingKeys: String, CodingKey { case srsName = "srs_name", srsId = "srs_id" }
    }

    struct PointOfInterest: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "poi"
        var fid: Int64?
        var geom: Data?
        var name: String
        var kind: Int?
        mutating func didInsert(_ inserted: InsertionSuccess) { fid = inserted.rowID }
    }

    @Test func geopackageTablesIntrospectAndJoin() throws {
        struct ContentInfo: Decodable, FetchableRecord {
            var content: Content
            var geometryColumns: GeometryColumn?
            var srs: SpatialRefSys?
        }
        let file = try RealDatabaseFile(Self.geopackageScript, functions: Self.spatialFunctions)
        try file.open().read { (db) throws in
            #expect(try Int.fetchOne(db, sql: "PRAGMA application_id") == 1_196_444_487)
            #expect(try db.primaryKey("gpkg_geometry_columns").columns == ["table_name", "column_name"])
            #expect(try db.table("gpkg_geometry_columns", hasUniqueKey: ["table_name"]))
            #expect(try db.table("gpkg_extensions", hasUniqueKey: ["table_name", "column_name", "extension_name"]))
            #expect(try db.foreignKeys(on: "gpkg_geometry_columns").map(\.destinationTable).sorted() == ["gpkg_contents", "gpkg_spatial_ref_sys"])
            #expect(try db.columns(in: "poi").map(\.type) == ["INTEGER", "POINT", "TEXT(80)", "MEDIUMINT"])
            let infos = try Content.including(optional: Content.geometryColumns).including(optional: Content.srs)
                .asRequest(of: ContentInfo.self).fetchAll(db)
            #expect(infos.count == 1)
            #expect(infos[0].geometryColumns?.geometryTypeName == "POINT")
            #expect(infos[0].srs?.srsName == "WGS 84 geodetic")
            // An ISO 8601 date with a Z.
            #expect((infos[0].content.lastChange.timeIntervalSince1970 * 1000).rounded() == 1_709_226_309_123)
            // The R*Tree, filled by the writer's triggers, and its rowid.
            #expect(try db.tableExists("rtree_poi_geom"))
            #expect(try db.columns(in: "rtree_poi_geom").map(\.name) == ["id", "minx", "maxx", "miny", "maxy"])
            let boxes = try Row.fetchAll(db, sql: "SELECT id, minx FROM rtree_poi_geom ORDER BY id")
            #expect(boxes.map { $0["id"] as Int64 } == [1, 2])
            let near = try Int64.fetchAll(db, sql: "SELECT id FROM rtree_poi_geom WHERE minx >= 2.3 AND maxx <= 2.4")
            #expect(near == [2])
            let shadow = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE name LIKE 'rtree_poi_geom_%' AND type = 'table' ORDER BY name")
            #expect(shadow == ["rtree_poi_geom_node", "rtree_poi_geom_parent", "rtree_poi_geom_rowid"])
        }
    }

    @Test func featureWritesThatFireSpatialTriggersFailClearly() throws {
        let file = try RealDatabaseFile(Self.geopackageScript, functions: Self.spatialFunctions)
        try file.open().write { (db) throws in
            var point = PointOfInterest(fid: nil, geom: Data([0x47, 0x50, 0, 1]), name: "Louvre", kind: 3)
            let insert = #expect(throws: DatabaseError.self) { try point.insert(db) }
            #expect(insert?.message == "no such function: ST_IsEmpty")
            #expect(try PointOfInterest.fetchCount(db) == 3)
            // An update of other columns fires no spatial trigger.
            var notreDame = try #require(try PointOfInterest.fetchOne(db, key: 2))
            notreDame.name = "Notre-Dame de Paris"
            try notreDame.update(db, columns: ["name"])
            #expect(try PointOfInterest.fetchOne(db, key: 2)?.name == "Notre-Dame de Paris")
            // A full update names `geom`, whose triggers need ST_IsEmpty.
            let update = #expect(throws: DatabaseError.self) { try notreDame.update(db) }
            #expect(update?.message == "no such function: ST_IsEmpty")
            // A delete needs none, and empties the R*Tree entry.
            #expect(try PointOfInterest.deleteOne(db, key: 1))
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM rtree_poi_geom") == 1)
            // A write of a `gpkg_*` table checks the specification's rules.
            let zoom = #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO gpkg_tile_matrix VALUES ('poi', -1, 1, 1, 256, 256, 1, 1)")
            }
            #expect(zoom?.message == "insert on table 'gpkg_tile_matrix' violates constraint: zoom_level cannot be less than 0")
        }
    }
}
