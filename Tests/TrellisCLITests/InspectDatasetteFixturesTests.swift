import Foundation
import Testing
import Trellis
import TrellisCLICore

/// `trellis inspect` on Datasette's fixtures: names with slashes, dots
/// and spaces, a table named `select`, three keys from one table to
/// another, a key over two columns, a key to a missing table, and an
/// FTS4 table whose content is another table.
@Suite struct InspectDatasetteFixturesTests {
    static let sql = """
        CREATE TABLE simple_primary_key (id varchar(30) primary key, content text);
        CREATE TABLE compound_primary_key (pk1 varchar(30), pk2 varchar(30), content text, PRIMARY KEY (pk1, pk2));
        CREATE TABLE foreign_key_references (pk varchar(30) primary key, foreign_key_with_label varchar(30), foreign_key_with_blank_label varchar(30), foreign_key_compound_pk1 varchar(30), foreign_key_compound_pk2 varchar(30),
          FOREIGN KEY (foreign_key_with_label) REFERENCES simple_primary_key(id),
          FOREIGN KEY (foreign_key_with_blank_label) REFERENCES simple_primary_key(id),
          FOREIGN KEY (foreign_key_compound_pk1, foreign_key_compound_pk2) REFERENCES compound_primary_key(pk1, pk2));
        CREATE TABLE "custom_foreign_key_label" (pk varchar(30) primary key, foreign_key_with_custom_label text,
          FOREIGN KEY ("foreign_key_with_custom_label") REFERENCES [primary_key_multiple_columns_explicit_label](id));
        CREATE TABLE "table/with/slashes.csv" (pk varchar(30) primary key, content text);
        CREATE TABLE [select] ([group] text, [having] text, [and] text, [json] text);
        CREATE TABLE "123_starts_with_digits" (content text);
        CREATE TABLE searchable (pk integer primary key, text1 text, [name with . and spaces] text);
        CREATE VIRTUAL TABLE "searchable_fts" USING FTS4 (text1, [name with . and spaces], content="searchable");
        CREATE TABLE facetable (pk integer primary key, _city_id integer, distinct_some_null, FOREIGN KEY ("_city_id") REFERENCES [facet_cities](id));
        CREATE TABLE facet_cities (id integer primary key, name text);
        """

    @Test func oddNamesMissingTablesAndCompoundKeysAreReported() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("inspect-datasette-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try InspectedDatabase.write(Self.sql, at: path)
        let report = try SchemaInspector.inspect(path: path)
        #expect(report.tables.map(\.name) == [
            "123_starts_with_digits", "compound_primary_key", "custom_foreign_key_label", "facet_cities", "facetable",
            "foreign_key_references", "searchable", "searchable_fts", "select", "simple_primary_key", "table/with/slashes.csv",
        ])
        #expect(report.tables.allSatisfy { $0.error == nil })
        #expect(report.tables.first { $0.name == "searchable_fts" }?.columns.map(\.name) == ["text1", "name with . and spaces"])
        #expect(report.tables.first { $0.name == "facetable" }?.columns.map(\.type) == ["INTEGER", "INTEGER", ""])
        #expect(report.warnings == [
            "Foreign key (foreign_key_with_custom_label) of custom_foreign_key_label references primary_key_multiple_columns_explicit_label, which is not a table of this database: no association",
        ])
        #expect(report.ambiguities.map(\.advice) == [
            #"Ambiguous foreign key from foreign_key_references to simple_primary_key: use ForeignKey(["foreign_key_with_label"]) or ForeignKey(["foreign_key_with_blank_label"])"#,
        ])
        let references = report.associations.filter { $0.table == "foreign_key_references" }
        #expect(references.map(\.declaration) == [
            #"static let compoundPrimaryKey = belongsTo(CompoundPrimaryKey.self, key: "compoundPrimaryKey")"#,
            #"static let foreignKeyWithLabel = belongsTo(SimplePrimaryKey.self, key: "foreignKeyWithLabel", using: ForeignKey(["foreign_key_with_label"]))"#,
            #"static let foreignKeyWithBlankLabel = belongsTo(SimplePrimaryKey.self, key: "foreignKeyWithBlankLabel", using: ForeignKey(["foreign_key_with_blank_label"]))"#,
        ])
        #expect(references.first?.foreignKey == ["foreign_key_compound_pk1", "foreign_key_compound_pk2"])
        // The city of a facet: the column `_city_id` is no member name.
        #expect(report.associations.filter { $0.table == "facetable" }.map(\.declaration)
            == [#"static let facetCity = belongsTo(FacetCity.self, key: "facetCity")"#])
        let text = ReportRenderer.text(report)
        #expect(text.contains("Table table/with/slashes.csv\n"))
        #expect(text.contains("Table searchable_fts (virtual table, fts4)\n"))
        #expect(text.contains("Foreign key: (foreign_key_compound_pk1, foreign_key_compound_pk2) -> compound_primary_key(pk1, pk2)\n"))
        // Text keys are not said to be unnumbered: only numeric ones.
        #expect(!text.contains("not an alias of the rowid"))
        let json = try JSONSerialization.jsonObject(with: Data(try ReportRenderer.json(report).utf8)) as? [String: Any]
        let tables = json?["tables"] as? [[String: Any]] ?? []
        #expect(tables.map { $0["name"] as? String } == report.tables.map(\.name))
    }
}
