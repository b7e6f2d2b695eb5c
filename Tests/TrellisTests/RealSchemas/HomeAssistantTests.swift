import Foundation
import Testing
import Trellis

/// Home Assistant's `home-assistant_v2.db`, as SQLAlchemy writes it:
/// `PRIMARY KEY (...)` at the end of each table, `DATETIME` text with
/// microseconds and no time zone, `CHAR(0)` columns left NULL since their
/// data moved to `*_ts FLOAT` columns, `BOOLEAN` and `SMALLINT` flags, a
/// keyword column `"end"`, and `states.old_state_id`, a foreign key to
/// its own table.
@Suite struct HomeAssistantTests {
    static let script = #"""
        PRAGMA journal_mode = WAL;
        CREATE TABLE event_types (
        	event_type_id INTEGER NOT NULL, 
        	event_type VARCHAR(64), 
        	PRIMARY KEY (event_type_id)
        );
        CREATE TABLE event_data (
        	data_id INTEGER NOT NULL, 
        	hash BIGINT, 
        	shared_data TEXT, 
        	PRIMARY KEY (data_id)
        );
        CREATE TABLE states_meta (
        	metadata_id INTEGER NOT NULL, 
        	entity_id VARCHAR(255), 
        	PRIMARY KEY (metadata_id)
        );
        CREATE TABLE state_attributes (
        	attributes_id INTEGER NOT NULL, 
        	hash BIGINT, 
        	shared_attrs TEXT, 
        	PRIMARY KEY (attributes_id)
        );
        CREATE TABLE recorder_runs (
        	run_id INTEGER NOT NULL, 
        	start DATETIME NOT NULL, 
        	"end" DATETIME, 
        	closed_incorrect BOOLEAN NOT NULL, 
        	created DATETIME NOT NULL, 
        	PRIMARY KEY (run_id)
        );
        CREATE TABLE schema_changes (
        	change_id INTEGER NOT NULL, 
        	schema_version INTEGER, 
        	changed DATETIME NOT NULL, 
        	PRIMARY KEY (change_id)
        );
        CREATE TABLE events (
        	event_id INTEGER NOT NULL, 
        	event_type CHAR(0), 
        	event_data CHAR(0), 
        	origin CHAR(0), 
        	origin_idx SMALLINT, 
        	time_fired CHAR(0), 
        	time_fired_ts FLOAT, 
        	context_id CHAR(0), 
        	context_user_id CHAR(0), 
        	context_parent_id CHAR(0), 
        	data_id INTEGER, 
        	context_id_bin BLOB, 
        	context_user_id_bin BLOB, 
        	context_parent_id_bin BLOB, 
        	event_type_id INTEGER, 
        	PRIMARY KEY (event_id), 
        	FOREIGN KEY(data_id) REFERENCES event_data (data_id), 
        	FOREIGN KEY(event_type_id) REFERENCES event_types (event_type_id)
        );
        CREATE TABLE states (
        	state_id INTEGER NOT NULL, 
        	entity_id CHAR(0), 
        	state VARCHAR(255), 
        	attributes CHAR(0), 
        	event_id SMALLINT, 
        	last_changed CHAR(0), 
        	last_changed_ts FLOAT, 
        	last_reported_ts FLOAT, 
        	last_updated CHAR(0), 
        	last_updated_ts FLOAT, 
        	old_state_id INTEGER, 
        	attributes_id INTEGER, 
        	context_id CHAR(0), 
        	context_user_id CHAR(0), 
        	context_parent_id CHAR(0), 
        	origin_idx SMALLINT, 
        	context_id_bin BLOB, 
        	context_user_id_bin BLOB, 
        	context_parent_id_bin BLOB, 
        	metadata_id INTEGER, 
        	PRIMARY KEY (state_id), 
        	FOREIGN KEY(old_state_id) REFERENCES states (state_id) ON DELETE SET NULL, 
        	FOREIGN KEY(attributes_id) REFERENCES state_attributes (attributes_id), 
        	FOREIGN KEY(metadata_id) REFERENCES states_meta (metadata_id)
        );
        CREATE TABLE statistics_meta (
        	id INTEGER NOT NULL, 
        	statistic_id VARCHAR(255), 
        	source VARCHAR(32), 
        	unit_of_measurement VARCHAR(255), 
        	has_mean BOOLEAN, 
        	has_sum BOOLEAN, 
        	name VARCHAR(255), 
        	PRIMARY KEY (id)
        );
        CREATE TABLE statistics (
        	id INTEGER NOT NULL, 
        	created CHAR(0), 
        	created_ts FLOAT, 
        	metadata_id INTEGER, 
        	start CHAR(0), 
        	start_ts FLOAT, 
        	mean FLOAT, 
        	min FLOAT, 
        	max FLOAT, 
        	last_reset CHAR(0), 
        	last_reset_ts FLOAT, 
        	state FLOAT, 
        	sum FLOAT, 
        	PRIMARY KEY (id), 
        	FOREIGN KEY(metadata_id) REFERENCES statistics_meta (id) ON DELETE CASCADE
        );
        CREATE UNIQUE INDEX ix_statistics_statistic_id_start_ts ON statistics (metadata_id, start_ts);
        CREATE INDEX ix_states_metadata_id_last_updated_ts ON states (metadata_id, last_updated_ts);
        CREATE INDEX ix_states_old_state_id ON states (old_state_id);
        CREATE INDEX ix_states_attributes_id ON states (attributes_id);
        CREATE UNIQUE INDEX ix_states_meta_entity_id ON states_meta (entity_id);
        CREATE INDEX ix_state_attributes_hash ON state_attributes (hash);
        CREATE UNIQUE INDEX ix_event_types_event_type ON event_types (event_type);
        CREATE INDEX ix_events_time_fired_ts ON events (time_fired_ts);
        CREATE INDEX ix_events_data_id ON events (data_id);
        CREATE UNIQUE INDEX ix_statistics_meta_statistic_id ON statistics_meta (statistic_id);
        CREATE INDEX ix_recorder_runs_start_end ON recorder_runs (start, "end");
        INSERT INTO schema_changes VALUES (1, 43, '2024-03-01 09:00:00.000000');
        INSERT INTO recorder_runs VALUES (1, '2024-03-01 09:00:00.125000', '2024-03-02 09:00:00.000000', 0, '2024-03-01 09:00:00.125000'),
                                         (2, '2024-03-02 09:00:01.000000', NULL, 1, '2024-03-02 09:00:01.000000');
        INSERT INTO states_meta VALUES (1, 'sensor.living_room_temperature'), (2, 'light.kitchen');
        INSERT INTO state_attributes VALUES (1, 3012234567, '{"unit_of_measurement":"°C","device_class":"temperature","friendly_name":"Living room"}'),
                                            (2, 1234, '{"friendly_name":"Kitchen","brightness":null}');
        INSERT INTO event_types VALUES (1, 'state_changed'), (2, 'call_service');
        INSERT INTO event_data VALUES (1, 99, '{"domain":"light","service":"turn_on"}');
        INSERT INTO events (event_id, origin_idx, time_fired_ts, data_id, context_id_bin, event_type_id)
          VALUES (1, 0, 1709283600.5, 1, x'018dfc3a8a2f7b6c9d1e2f3a4b5c6d7e', 2);
        INSERT INTO states (state_id, state, last_changed_ts, last_updated_ts, old_state_id, attributes_id, origin_idx, metadata_id)
          VALUES (1, '20.5', NULL, 1709283600.123456, NULL, 1, 0, 1),
                 (2, '21.0', NULL, 1709287200.25, 1, 1, 0, 1),
                 (3, 'unavailable', 1709290800.0, 1709290800.0, 2, 1, 0, 1),
                 (4, 'on', NULL, 1709283700.0, NULL, 2, 0, 2);
        INSERT INTO statistics_meta VALUES (1, 'sensor.living_room_temperature', 'recorder', '°C', 1, 0, NULL);
        INSERT INTO statistics (id, created_ts, metadata_id, start_ts, mean, min, max, state, sum)
          VALUES (1, 1709287210.1, 1, 1709283600.0, 20.75, 20.5, 21.0, NULL, NULL),
                 (2, 1709290810.1, 1, 1709287200.0, 21.0, 21.0, 21.0, NULL, NULL);
        """#

    struct StateMeta: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "states_meta"
        static let states = hasMany(HAState.self)
        var metadataId: Int64
        var entityId: String
        enum CodingKeys: String, CodingKey { case metadataId = "metadata_id", entityId = "entity_id" }
    }

    struct HAState: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "states"
        static let oldState = belongsTo(HAState.self, key: "oldState")
        static let nextStates = hasMany(HAState.self, key: "nextStates")
        static let meta = belongsTo(StateMeta.self, key: "meta")
        static let stateAttributes = belongsTo(StateAttributes.self, key: "stateAttributes")
        var stateId: Int64?
        var entityId: String?
        var state: String?
        var lastChangedTs: Double?
        var lastUpdatedTs: Double?
        var oldStateId: Int64?
        var attributesId: Int64?
        var originIdx: Int?
        var metadataId: Int64?
        enum CodingKeys: String, CodingKey {
            case stateId = "state_id", entityId = "entity_id", state
            case lastChangedTs = "last_changed_ts", lastUpdatedTs = "last_updated_ts", oldStateId = "old_state_id"
            case attributesId = "attributes_id", originIdx = "origin_idx", metadataId = "metadata_id"
        }
        var lastUpdated: Date? { lastUpdatedTs.map(Date.init(timeIntervalSince1970:)) }
        mutating func didInsert(_ inserted: InsertionSuccess) { stateId = inserted.rowID }
    }

    struct StateAttributes: Codable, FetchableRecord, TableRecord {
        static let databaseTableName = "state_attributes"
        struct Shared: Codable, Equatable {
            var friendlyName: String
            var unitOfMeasurement: String?
            enum CodingKeys: String, CodingKey { case friendlyName = "friendly_name", unitOfMeasurement = "unit_of_measurement" }
        }
        var attributesId: Int64
        var hash: Int64
        var sharedAttrs: Shared
        enum CodingKeys: String, CodingKey { case attributesId = "attributes_id", hash, sharedAttrs = "shared_attrs" }
    }

    struct RecorderRun: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "recorder_runs"
        var runId: Int64?
        var start: Date
        var end: Date?
        var closedIncorrect: Bool
        var created: Date
        enum CodingKeys: String, CodingKey { case runId = "run_id", start, end, closedIncorrect = "closed_incorrect", created }
        mutating func didInsert(_ inserted: InsertionSuccess) { runId = inserted.rowID }
    }

    struct Statistic: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "statistics"
        var id: Int64?
        var createdTs: Double
        var metadataId: Int64
        var startTs: Double
        var mean: Double?
        var min: Double?
        var max: Double?
        enum CodingKeys: String, CodingKey { case id, createdTs = "created_ts", metadataId = "metadata_id", startTs = "start_ts", mean, min, max }
    }

    @Test func sqlalchemyTablesIntrospectAsDeclared() throws {
        let file = try RealDatabaseFile(Self.script)
        try file.open().read { (db) throws in
            #expect(try db.primaryKey("states").rowIDColumn == "state_id")
            #expect(try db.primaryKey("recorder_runs").columns == ["run_id"])
            let foreignKeys = try db.foreignKeys(on: "states")
            #expect(Set(foreignKeys.map(\.destinationTable)) == ["states", "state_attributes", "states_meta"])
            let old = try #require(foreignKeys.first { $0.originColumns == ["old_state_id"] })
            #expect(old.destinationColumns == ["state_id"])
            #expect(old.onDelete == .setNull)
            let columns = try db.columns(in: "states")
            #expect(columns.first { $0.name == "entity_id" }?.type == "CHAR(0)")
            #expect(columns.first { $0.name == "origin_idx" }?.type == "SMALLINT")
            #expect(try db.columns(in: "recorder_runs").map(\.name) == ["run_id", "start", "end", "closed_incorrect", "created"])
            #expect(try db.table("statistics", hasUniqueKey: ["start_ts", "metadata_id"]))
            #expect(try db.table("states_meta", hasUniqueKey: ["entity_id"]))
            #expect(try db.indexes(on: "recorder_runs").map(\.columns) == [["start", "end"]])
            #expect(try String.fetchOne(db, sql: "PRAGMA journal_mode") == "wal")
        }
    }

    @Test func statesFollowTheirPreviousStateThroughTheSelfReference() throws {
        struct StateInfo: Decodable, FetchableRecord {
            // Not `state`: a column of that name would be decoded as JSON.
            var record: HAState
            var oldState: HAState?
            var meta: StateMeta
            var stateAttributes: StateAttributes
        }
        struct EntitySummary: Decodable, FetchableRecord {
            var entityId: String
            var stateCount: Int
            var maxStateLastUpdatedTs: Double?
            enum CodingKeys: String, CodingKey { case entityId = "entity_id", stateCount, maxStateLastUpdatedTs }
        }
        let file = try RealDatabaseFile(Self.script)
        try file.open().read { (db) throws in
            // The column `attributes` (NULL) hides an association of that
            // key, and the error says so.
            let hidden = #expect(throws: RowDecodingError.self) {
                struct Hidden: Decodable, FetchableRecord { var record: HAState; var attributes: StateAttributes }
                _ = try HAState.including(required: HAState.stateAttributes.forKey("attributes")).asRequest(of: Hidden.self).fetchAll(db)
            }
            #expect(hidden?.message.hasSuffix(#"the column "attributes" hides the association of the same key: give the association another key"#) == true)
            let infos = try HAState
                .including(optional: HAState.oldState)
                .including(required: HAState.meta)
                .including(required: HAState.stateAttributes)
                .order(Column("state_id"))
                .asRequest(of: StateInfo.self).fetchAll(db)
            #expect(infos.map(\.record.state) == ["20.5", "21.0", "unavailable", "on"])
            #expect(infos.map { $0.oldState?.state } == [nil, "20.5", "21.0", nil])
            #expect(infos.map(\.meta.entityId) == ["sensor.living_room_temperature", "sensor.living_room_temperature", "sensor.living_room_temperature", "light.kitchen"])
            #expect(infos[0].stateAttributes.sharedAttrs == .init(friendlyName: "Living room", unitOfMeasurement: "°C"))
            #expect(infos[3].stateAttributes.sharedAttrs == .init(friendlyName: "Kitchen", unitOfMeasurement: nil))
            // The columns that moved to `*_ts` are NULL.
            #expect(infos.allSatisfy { $0.record.entityId == nil })
            #expect(infos[0].record.lastUpdated == Date(timeIntervalSince1970: 1_709_283_600.123456))
            let next = try HAState.including(all: HAState.nextStates).filter(key: 1).fetchOne(db)
            #expect(next?.stateId == 1)
            let nexts = try HAState.filter(key: 1).including(all: HAState.nextStates.select(Column("state"))).asRequest(of: Row.self).fetchOne(db)
            #expect(nexts?.prefetchedRows["nextStates"]?.map { $0["state"] as String? } == ["21.0"])
            let summary = try StateMeta
                .annotated(with: StateMeta.states.count, StateMeta.states.max(Column("last_updated_ts")).forKey("maxStateLastUpdatedTs"))
                .order(Column("entity_id"))
                .asRequest(of: EntitySummary.self).fetchAll(db)
            #expect(summary.map(\.entityId) == ["light.kitchen", "sensor.living_room_temperature"])
            #expect(summary.map(\.stateCount) == [1, 3])
            #expect(summary.map(\.maxStateLastUpdatedTs) == [1_709_283_700, 1_709_290_800])
            let key = try StateMeta.annotated(with: StateMeta.states.max(Column("last_updated_ts"))).asRequest(of: Row.self).fetchOne(db)
            #expect(key?.columnNames.last == "maxStateLast_updated_ts")
        }
    }

    @Test func deletingAStateNullsTheLinkOfTheNextOne() throws {
        let file = try RealDatabaseFile(Self.script)
        try file.open().write { (db) throws in
            var state = HAState(entityId: nil, state: "22.0", lastChangedTs: nil, lastUpdatedTs: 1_709_294_400, oldStateId: 3, attributesId: 1, originIdx: 0, metadataId: 1)
            try state.insert(db)
            #expect(state.stateId == 5)
            #expect(try HAState.deleteOne(db, key: 3))
            #expect(try HAState.fetchOne(db, key: 5)?.oldStateId == nil)
            // The recorder's purge: the oldest states, oldest first.
            let deleted = try HAState.filter(Column("last_updated_ts") < 1_709_287_300).deleteAll(db)
            #expect(deleted == 3)
            #expect(try HAState.fetchAll(db).map(\.stateId) == [5])
            let bad = #expect(throws: DatabaseError.self) {
                var orphan = HAState(state: "x", oldStateId: 42, metadataId: 1)
                try orphan.insert(db)
            }
            #expect(bad?.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
        }
    }

    @Test func datetimeTextAndKeywordColumnsRoundTrip() throws {
        let file = try RealDatabaseFile(Self.script)
        try file.open().write { (db) throws in
            let runs = try RecorderRun.order(Column("run_id")).fetchAll(db)
            #expect(runs.map(\.closedIncorrect) == [false, true])
            #expect(runs[0].start == Date(timeIntervalSince1970: 1_709_283_600.125))
            #expect(runs[1].end == nil)
            var run = runs[1]
            run.end = Date(timeIntervalSince1970: 1_709_370_000)
            try run.update(db)
            #expect(try String.fetchOne(db, sql: #"SELECT "end" FROM recorder_runs WHERE run_id = 2"#) == "2024-03-02 09:00:00.000")
            #expect(try RecorderRun.filter(Column("end") == nil).fetchCount(db) == 0)
            var new = RecorderRun(start: Date(timeIntervalSince1970: 1_709_370_001), end: nil, closedIncorrect: false, created: Date(timeIntervalSince1970: 1_709_370_001))
            try new.save(db)
            #expect(new.runId == 3)
            #expect(try Bool.fetchAll(db, sql: "SELECT closed_incorrect FROM recorder_runs ORDER BY run_id") == [false, true, false])
            #expect(try Bool.fetchOne(db, sql: "SELECT has_mean FROM statistics_meta") == true)
        }
    }

    @Test func statisticsUpsertOnTheirUniqueIndex() throws {
        let file = try RealDatabaseFile(Self.script)
        try file.open().write { (db) throws in
            #expect(try Statistic.fetchOne(db, key: ["metadata_id": 1, "start_ts": 1_709_287_200.0])?.id == 2)
            let corrected = Statistic(id: nil, createdTs: 1_709_294_410, metadataId: 1, startTs: 1_709_287_200, mean: 21.5, min: 21.0, max: 22.0)
            try corrected.upsert(db)
            #expect(try Statistic.fetchCount(db) == 2)
            let stored = try #require(try Statistic.fetchOne(db, key: ["metadata_id": 1, "start_ts": 1_709_287_200.0]))
            #expect(stored.id == 2)
            #expect(stored.mean == 21.5)
            // Deleting the metadata cascades to its statistics.
            try db.execute(sql: "DELETE FROM statistics_meta WHERE id = 1")
            #expect(try Statistic.fetchCount(db) == 0)
        }
    }
}
