import Foundation
import Testing
import Trellis
import TrellisCLICore

/// `trellis inspect` on files made to attack the tool that opens them.
@Suite struct InspectUntrustedFileTests {
    private let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("untrusted-\(UUID().uuidString).sqlite").path

    private func removeFiles() {
        for suffix in ["", "-journal", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    @Test func aSchemaThatCallsFunctionsIsReportedAndTheFileIsUnchanged() throws {
        // Views, triggers, generated columns, checks and indexes that call
        // a function Trellis registers on each connection.
        try InspectedDatabase.write("""
            CREATE TABLE t(x TEXT CHECK (swiftUppercaseString(x) <> ''), y AS (swiftLowercaseString(x)));
            CREATE INDEX t_upper ON t(swiftUppercaseString(x));
            CREATE VIEW v AS SELECT swiftCapitalizedString(x) AS z FROM t;
            CREATE TRIGGER tr AFTER INSERT ON t BEGIN DELETE FROM t; END;
            INSERT INTO t(x) VALUES ('a');
            """, at: path)
        defer { removeFiles() }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let report = try SchemaInspector.inspect(path: path)
        #expect(report.tables.map(\.name) == ["t"])
        #expect(report.tables.first?.columns.map(\.name) == ["x", "y"])
        #expect(report.views.map(\.name) == ["v"])
        #expect(report.views.first?.columns.map(\.name) == ["z"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func anInspectionPastItsTimeLimitStopsWithAClearError() throws {
        try InspectedDatabase.write("CREATE TABLE t(x)", at: path)
        defer { removeFiles() }
        let error = try #require(throws: CommandError.self) {
            try SchemaInspector.inspect(path: path, timeLimit: 0)
        }
        #expect(error.description.contains("took longer than 0.0 s to inspect"))
    }
}
