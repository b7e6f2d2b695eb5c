import Foundation
import Testing
import Trellis

/// MBTiles map tile sets: a `metadata` table without primary key whose
/// unique index is named `name` like its column, tiles identified by a
/// unique index over three columns, blobs of PNG and gzipped vector
/// tiles, a JSON metadata value; and the deduplicated layout of mbutil
/// and tippecanoe, where `tiles` is a view joining `map` to `images` on
/// a text column that is no primary key.
@Suite struct MBTilesTests {
    static let plainScript = """
        CREATE TABLE metadata (name text, value text);
        CREATE UNIQUE INDEX name ON metadata (name);
        CREATE TABLE tiles (zoom_level integer, tile_column integer, tile_row integer, tile_data blob);
        CREATE UNIQUE INDEX tile_index on tiles (zoom_level, tile_column, tile_row);
        INSERT INTO metadata VALUES ('name', 'Natural Earth'), ('format', 'png'), ('bounds', '-180.0,-85,180,85'), ('minzoom', '0'), ('maxzoom', '2'),
            ('json', '{"vector_layers":[{"id":"water","minzoom":0,"maxzoom":2,"fields":{"class":"String"}}]}');
        INSERT INTO tiles VALUES (0, 0, 0, X'89504E470D0A1A0A0000000D49484452'), (1, 0, 0, X'89504E470D0A1A0A01'), (1, 1, 0, X'89504E470D0A1A0A02'), (1, 1, 1, X'');
        """

    static let deduplicatedScript = """
        CREATE TABLE metadata (name text, value text);
        CREATE UNIQUE INDEX name on metadata (name);
        CREATE TABLE map (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_id TEXT);
        CREATE TABLE images (tile_data blob, tile_id text);
        CREATE UNIQUE INDEX map_index on map (zoom_level, tile_column, tile_row);
        CREATE UNIQUE INDEX images_id on images (tile_id);
        CREATE VIEW tiles AS SELECT map.zoom_level AS zoom_level, map.tile_column AS tile_column, map.tile_row AS tile_row, images.tile_data AS tile_data FROM map JOIN images ON images.tile_id = map.tile_id;
        INSERT INTO images VALUES (X'1F8B0800000000000003', 'ocean'), (X'1F8B08000000000000FF', 'land');
        INSERT INTO map VALUES (0, 0, 0, 'land'), (1, 0, 0, 'ocean'), (1, 0, 1, 'ocean'), (1, 1, 0, 'land'), (1, 1, 1, 'missing');
        """

    struct Metadata: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "metadata"
        var name: String
        var value: String
    }

    struct Tile: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "tiles"
        var zoom_level: Int
        var tile_column: Int
        var tile_row: Int
        var tile_data: Data
    }

    struct Image: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "images"
        static let placements = hasMany(Placement.self, key: "placements", using: Placement.imageForeignKey)
        var tile_data: Data
        var tile_id: String
    }

    struct Placement: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "map"
        static let imageForeignKey = ForeignKey(["tile_id"], to: ["tile_id"])
        static let image = belongsTo(Image.self, using: imageForeignKey)
        var zoom_level: Int
        var tile_column: Int
        var tile_row: Int
        var tile_id: String
    }

    struct VectorLayers: Decodable {
        struct Layer: Decodable { var id: String; var minzoom: Int; var maxzoom: Int }
        var vector_layers: [Layer]
    }

    @Test func tilesAreFoundByTheirUniqueIndex() throws {
        let file = try RealDatabaseFile(Self.plainScript)
        try file.open().read { db in
            #expect(try db.primaryKey("tiles").columns == ["rowid"])
            #expect(try db.indexes(on: "metadata").map(\.name) == ["name"])
            #expect(try db.table("tiles", hasUniqueKey: ["tile_row", "zoom_level", "tile_column"]))
            let tile = try #require(try Tile.fetchOne(db, key: ["zoom_level": 1, "tile_column": 1, "tile_row": 0]))
            #expect(tile.tile_data == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x02]))
            // An empty blob is data, not NULL.
            let empty = try #require(try Tile.fetchOne(db, key: ["zoom_level": 1, "tile_column": 1, "tile_row": 1]))
            #expect(empty.tile_data.isEmpty)
            #expect(try Tile.filter(Column("zoom_level") == 1).fetchCount(db) == 3)
            #expect(try Tile.exists(db, key: ["zoom_level": 2, "tile_column": 0, "tile_row": 0]) == false)
            let error = #expect(throws: DatabaseError.self) { try Tile.fetchOne(db, key: ["zoom_level": 0, "tile_column": 0]) }
            #expect(error?.message == "table tiles has no unique key on column(s) tile_column, zoom_level")
            #expect(try Int.fetchOne(db, Tile.select(max(Column("zoom_level")))) == 1)
            #expect(try Int.fetchOne(db, Tile.select(sum(length(Column("tile_data"))))) == 16 + 9 + 9)
        }
    }

    @Test func metadataValuesAreTextWithJSONAndNumbers() throws {
        let file = try RealDatabaseFile(Self.plainScript)
        let dbQueue = try file.open()
        try dbQueue.write { db in
            let metadata = try Metadata.fetchOne(db, key: ["name": "json"])
            let data = try #require(metadata?.value.data(using: .utf8))
            let layers = try JSONDecoder().decode(VectorLayers.self, from: data)
            #expect(layers.vector_layers.map(\.id) == ["water"])
            // JSON functions of SQLite read the same text.
            let layerID = try String.fetchOne(db, Metadata.select(JSONColumn("value")["$.vector_layers[0].id"]).filter(Column("name") == "json"))
            #expect(layerID == "water")
            #expect(try Int.fetchOne(db, Metadata.select(Column("value")).filter(Column("name") == "maxzoom")) == 2)
            // Bounds are text of four numbers, not one number.
            #expect(throws: (any Error).self) {
                try Double.fetchOne(db, Metadata.select(Column("value")).filter(Column("name") == "bounds"))
            }
            // A metadata row is written once per name.
            try Metadata(name: "maxzoom", value: "3").upsert(db)
            try Metadata(name: "attribution", value: "© OpenMapTiles").upsert(db)
            #expect(try Metadata.fetchCount(db) == 7)
            #expect(try Metadata.fetchOne(db, key: ["name": "maxzoom"])?.value == "3")
            // `update` needs a primary key or a unique key it can use; a
            // rowid table without one updates by rowid, which the record
            // does not know.
            let error = #expect(throws: (any Error).self) { try Metadata(name: "format", value: "pbf").update(db) }
            #expect("\(error.map { String(describing: $0) } ?? "")" == "Key not found in table metadata: [rowid:NULL]")
            #expect(try Metadata.filter(Column("name") == "format").updateAll(db, Column("value").set(to: "pbf")) == 1)
            #expect(try Metadata.fetchOne(db, key: ["name": "format"])?.value == "pbf")
            #expect(try Metadata.deleteOne(db, key: ["name": "attribution"]))
        }
    }

    @Test func deduplicatedTilesJoinImagesOnANonKeyColumn() throws {
        struct PlacementWithImage: Decodable, FetchableRecord {
            var placement: Placement
            var image: Image?
        }
        struct ImageWithPlacements: Decodable, FetchableRecord {
            var image: Image
            var placements: [Placement]
        }
        let file = try RealDatabaseFile(Self.deduplicatedScript)
        try file.open().read { db in
            let placements = try Placement.including(optional: Placement.image)
                .order(Column("zoom_level"), Column("tile_column"), Column("tile_row"))
                .asRequest(of: PlacementWithImage.self).fetchAll(db)
            #expect(placements.map { $0.image?.tile_id } == ["land", "ocean", "ocean", "land", nil])
            let images = try Image.including(all: Image.placements.filter(Column("zoom_level") == 1).order(Column("tile_column"), Column("tile_row")))
                .order(Column("tile_id")).asRequest(of: ImageWithPlacements.self).fetchAll(db)
            #expect(images.map(\.image.tile_id) == ["land", "ocean"])
            #expect(images.map { $0.placements.map { [$0.tile_column, $0.tile_row] } } == [[[1, 0]], [[0, 0], [0, 1]]])
            let counts = try Row.fetchAll(db, Image.annotated(with: Image.placements.count).order(Column("tile_id")))
            #expect(counts.map { $0["placementCount"] as Int } == [2, 2])
            let imageAlias = TableAlias<Image>()
            let missing = try Placement.joining(optional: Placement.image.aliased(imageAlias))
                .filter(imageAlias[Column("tile_id")] == nil)
                .fetchAll(db)
            #expect(missing.map(\.tile_id) == ["missing"])
        }
    }

    @Test func theTilesViewIsReadButHasNoKey() throws {
        let file = try RealDatabaseFile(Self.deduplicatedScript)
        let dbQueue = try file.open()
        try dbQueue.write { db in
            // The view drops the tile whose image is missing.
            #expect(try Tile.fetchCount(db) == 4)
            let tiles = try Tile.filter(Column("zoom_level") == 1).order(Column("tile_column"), Column("tile_row")).fetchAll(db)
            #expect(tiles.map { $0.tile_data.last } == [0x03, 0x03, 0xFF])
            // A view has no unique key.
            let error = #expect(throws: DatabaseError.self) {
                try Tile.fetchOne(db, key: ["zoom_level": 0, "tile_column": 0, "tile_row": 0])
            }
            #expect(error?.message == "table tiles has no unique key on column(s) tile_column, tile_row, zoom_level")
            // Nor can it be written.
            let insert = #expect(throws: DatabaseError.self) {
                try Tile(zoom_level: 2, tile_column: 0, tile_row: 0, tile_data: Data([1])).insert(db)
            }
            #expect(insert?.message == "cannot modify tiles because it is a view")
        }
    }
}
