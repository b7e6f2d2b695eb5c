import Foundation
import Testing
import Trellis

/// Gitea's SQLite database, as its ORM (xorm) writes it: backquoted
/// names, a table named `user` and columns named `index`, `type` and
/// `version` (in a table `version`), unique indexes `UQE_...` over two
/// columns, no declared foreign key, times as INTEGER Unix seconds
/// (`created_unix`), a JSON array of topics in a TEXT column, and a link
/// table between issues and labels with an id of its own.
@Suite struct GiteaTests {
    static let script = """
        CREATE TABLE `version` (`id` INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, `version` INTEGER NULL);
        CREATE TABLE `user` (`id` INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, `lower_name` TEXT NOT NULL, `name` TEXT NOT NULL, `full_name` TEXT NULL, `email` TEXT NOT NULL, `keep_email_private` INTEGER NULL, `passwd` TEXT NOT NULL, `type` INTEGER NULL, `created_unix` INTEGER NULL, `updated_unix` INTEGER NULL, `is_admin` INTEGER NULL, `is_active` INTEGER NULL, `avatar` TEXT NOT NULL, `num_repos` INTEGER NULL, `theme` TEXT DEFAULT '' NOT NULL);
        CREATE UNIQUE INDEX `UQE_user_lower_name` ON `user` (`lower_name`);
        CREATE UNIQUE INDEX `UQE_user_name` ON `user` (`name`);
        CREATE INDEX `IDX_user_created_unix` ON `user` (`created_unix`);
        CREATE INDEX `IDX_user_is_active` ON `user` (`is_active`);
        CREATE TABLE `repository` (`id` INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, `owner_id` INTEGER NULL, `owner_name` TEXT NULL, `lower_name` TEXT NOT NULL, `name` TEXT NOT NULL, `description` TEXT NULL, `default_branch` TEXT NULL, `num_issues` INTEGER NULL, `is_private` INTEGER NULL, `size` INTEGER DEFAULT 0 NOT NULL, `topics` TEXT NULL, `created_unix` INTEGER NULL, `updated_unix` INTEGER NULL);
        CREATE UNIQUE INDEX `UQE_repository_s` ON `repository` (`owner_id`,`lower_name`);
        CREATE INDEX `IDX_repository_owner_id` ON `repository` (`owner_id`);
        CREATE TABLE `issue` (`id` INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, `repo_id` INTEGER NULL, `index` INTEGER NULL, `poster_id` INTEGER NULL, `original_author` TEXT NULL, `name` TEXT NULL, `content` TEXT NULL, `milestone_id` INTEGER NULL, `priority` INTEGER NULL, `is_closed` INTEGER NULL, `is_pull` INTEGER NULL, `num_comments` INTEGER NULL, `ref` TEXT NULL, `deadline_unix` INTEGER NULL, `created_unix` INTEGER NULL, `updated_unix` INTEGER NULL, `closed_unix` INTEGER NULL, `is_locked` INTEGER DEFAULT 0 NOT NULL);
        CREATE UNIQUE INDEX `UQE_issue_repo_index` ON `issue` (`repo_id`,`index`);
        CREATE INDEX `IDX_issue_poster_id` ON `issue` (`poster_id`);
        CREATE TABLE `label` (`id` INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, `repo_id` INTEGER NULL, `org_id` INTEGER NULL, `name` TEXT NULL, `exclusive` INTEGER NULL, `description` TEXT NULL, `color` TEXT NULL, `num_issues` INTEGER NULL, `created_unix` INTEGER NULL, `updated_unix` INTEGER NULL);
        CREATE TABLE `issue_label` (`id` INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, `issue_id` INTEGER NULL, `label_id` INTEGER NULL);
        CREATE UNIQUE INDEX `UQE_issue_label_s` ON `issue_label` (`issue_id`,`label_id`);
        INSERT INTO `version` (`id`, `version`) VALUES (1, 299);
        INSERT INTO `user` VALUES (1, 'gitea_admin', 'gitea_admin', 'Gitea Admin', 'admin@example.com', 0, 'pbkdf2$50000$50', 0, 1700000000, 1700000500, 1, 1, '', 2, ''),
            (2, 'jane', 'Jane', '', 'jane@example.com', 1, 'pbkdf2$50000$51', 0, 1700100000, 1700100000, 0, 1, '', 1, 'gitea-dark'),
            (3, 'acme', 'ACME', 'ACME Inc.', '', 0, '', 1, 1700200000, 1700200000, 0, 1, '', 0, '');
        INSERT INTO `repository` VALUES (1, 1, 'gitea_admin', 'trellis', 'Trellis', 'SQLite toolkit', 'main', 2, 0, 1024, '["swift","sqlite"]', 1700000100, 1700300000),
            (2, 1, 'gitea_admin', 'notes', 'notes', '', 'main', 0, 1, 0, NULL, 1700000200, 1700000200),
            (3, 2, 'jane', 'trellis', 'trellis', 'Fork', 'main', 1, 0, 2048, '[]', 1700100100, 1700100100);
        INSERT INTO `issue` VALUES (1, 1, 1, 2, '', 'Crash on WITHOUT ROWID', 'Steps...', 0, 0, 0, 0, 2, '', 0, 1700200000, 1700250000, 0, 0),
            (2, 1, 2, 1, '', 'Add STRICT tables', '', 0, 1, 1, 1, 0, 'refs/heads/strict', 0, 1700210000, 1700260000, 1700260000, 0),
            (3, 3, 1, 2, '', 'Sync with upstream', '', 0, 0, 0, 0, 0, '', 0, 1700220000, 1700220000, 0, 1);
        INSERT INTO `label` VALUES (1, 1, 0, 'kind/bug', 0, 'Something is broken', '#ee0701', 1, 1700000100, 1700000100),
            (2, 1, 0, 'kind/feature', 0, '', '#84b6eb', 1, 1700000100, 1700000100), (3, 1, 0, 'priority/high', 1, '', '#e11d21', 1, 1700000100, 1700000100);
        INSERT INTO `issue_label` (`issue_id`, `label_id`) VALUES (1, 1), (1, 3), (2, 2);
        """

    struct User: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "user"
        static let repositories = hasMany(Repository.self, using: ForeignKey(["owner_id"]))
        static let issues = hasMany(Issue.self, using: ForeignKey(["poster_id"]))
        static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { .timeIntervalSince1970 }
        static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy { .secondsSince1970 }
        var id: Int64?
        var lower_name: String
        var name: String
        var email: String
        var passwd: String
        var type: Int
        var created_unix: Date
        var avatar: String
        var theme: String
        var is_admin: Bool
        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    struct Repository: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "repository"
        static let owner = belongsTo(User.self, key: "owner", using: ForeignKey(["owner_id"]))
        static let issues = hasMany(Issue.self, using: ForeignKey(["repo_id"]))
        var id: Int64?
        var owner_id: Int64
        var owner_name: String
        var lower_name: String
        var name: String
        var topics: [String]?
        var size: Int64
        var is_private: Bool
        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    struct Issue: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "issue"
        static let repository = belongsTo(Repository.self, using: ForeignKey(["repo_id"]))
        static let poster = belongsTo(User.self, key: "poster", using: ForeignKey(["poster_id"]))
        static let issueLabels = hasMany(IssueLabel.self, using: ForeignKey(["issue_id"]))
        static let labels = hasMany(Label.self, through: issueLabels, using: IssueLabel.label)
        var id: Int64?
        var repo_id: Int64
        var index: Int64
        var poster_id: Int64
        var name: String
        var content: String
        var is_closed: Bool
        var is_pull: Bool
        var ref: String
        var created_unix: Int64
        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    struct Label: Codable, FetchableRecord, TableRecord {
        static let databaseTableName = "label"
        var id: Int64
        var name: String
        var color: String
        var exclusive: Bool
    }

    struct IssueLabel: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "issue_label"
        static let label = belongsTo(Label.self, using: ForeignKey(["label_id"]))
        var id: Int64?
        var issue_id: Int64
        var label_id: Int64
        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    @Test func namesThatAreKeywordsAreQuoted() throws {
        let file = try RealDatabaseFile(Self.script)
        let dbQueue = try file.open()
        try dbQueue.write { db in
            #expect(try db.tableExists("user"))
            #expect(try db.columns(in: "issue").map(\.name).contains("index"))
            #expect(try db.table("issue", hasUniqueKey: ["index", "repo_id"]))
            #expect(try Int.fetchOne(db, Table("version").select(Column("version"))) == 299)
            let admin = try #require(try User.fetchOne(db, key: ["lower_name": "gitea_admin"]))
            #expect(admin.id == 1)
            #expect(admin.is_admin)
            #expect(try User.filter(Column("type") == 1).fetchAll(db).map(\.name) == ["ACME"])
            let second = try #require(try Issue.fetchOne(db, key: ["repo_id": 1, "index": 2]))
            #expect(second.name == "Add STRICT tables")
            #expect(try Issue.order(Column("index").desc, Column("id")).fetchAll(db).map(\.id) == [2, 1, 3])
            // The next index of a repository.
            let next = try Int64.fetchOne(db, Issue.select(max(Column("index")) + 1).filter(Column("repo_id") == 1))
            var issue = Issue(id: nil, repo_id: 1, index: try #require(next), poster_id: 1, name: "Views", content: "",
                              is_closed: false, is_pull: false, ref: "", created_unix: 1700300000)
            try issue.insert(db)
            #expect(issue.id == 4)
            #expect(try Issue.filter(Column("repo_id") == 1).select(Column("index"), as: Int64.self).order(Column("index")).fetchAll(db) == [1, 2, 3])
            let duplicate = #expect(throws: DatabaseError.self) {
                var again = issue
                again.id = nil
                try again.insert(db)
            }
            #expect(duplicate?.message == "UNIQUE constraint failed: issue.repo_id, issue.index")
            #expect(try Issue.filter(Column("index") == 3).updateAll(db, Column("is_closed").set(to: true)) == 1)
            #expect(try Issue.filter(key: ["repo_id": 1, "index": 3]).fetchOne(db)?.is_closed == true)
        }
    }

    @Test func unixSecondsAreReadAndWrittenAsDates() throws {
        let file = try RealDatabaseFile(Self.script)
        let dbQueue = try file.open()
        try dbQueue.write { db in
            let jane = try #require(try User.fetchOne(db, key: 2))
            #expect(jane.created_unix == Date(timeIntervalSince1970: 1_700_100_000))
            var user = User(id: nil, lower_name: "rick", name: "Rick", email: "rick@example.com", passwd: "",
                            type: 0, created_unix: Date(timeIntervalSince1970: 1_700_400_000.75), avatar: "", theme: "", is_admin: false)
            try user.insert(db)
            // Whole seconds, an integer, as Gitea writes them.
            let stored = try Row.fetchOne(db, sql: "SELECT created_unix, typeof(created_unix) AS type FROM user WHERE id = ?", arguments: [user.id])
            #expect(stored?["created_unix"] == 1_700_400_000)
            #expect(stored?["type"] == "integer")
            let recent = try User.filter(Column("created_unix") >= Date(timeIntervalSince1970: 1_700_150_000).timeIntervalSince1970)
                .order(Column("created_unix")).fetchAll(db)
            #expect(recent.map(\.name) == ["ACME", "Rick"])
            // A name taken in another case is refused by the lower-case index.
            let error = #expect(throws: DatabaseError.self) {
                var twin = user
                twin.id = nil
                twin.name = "RICK"
                try twin.insert(db)
            }
            #expect(error?.message == "UNIQUE constraint failed: user.lower_name")
        }
    }

    @Test func topicsAreAJSONArrayInText() throws {
        let file = try RealDatabaseFile(Self.script)
        let dbQueue = try file.open()
        try dbQueue.write { db in
            let repositories = try Repository.order(Column("id")).fetchAll(db)
            #expect(repositories.map(\.topics) == [["swift", "sqlite"], nil, []])
            var repository = repositories[1]
            repository.topics = ["notes", "markdown"]
            try repository.update(db)
            #expect(try String.fetchOne(db, sql: "SELECT topics FROM repository WHERE id = 2") == #"["notes","markdown"]"#)
            let tagged = try Repository
                .filter(sql: "EXISTS (SELECT 1 FROM json_each(repository.topics) WHERE value = ?)", arguments: ["swift"])
                .fetchAll(db)
            #expect(tagged.map(\.id) == [1])
            // A topic list that is not JSON is an error, not an empty list.
            try db.execute(sql: "UPDATE repository SET topics = 'swift,sqlite' WHERE id = 3")
            let error = #expect(throws: (any Error).self) { try Repository.fetchOne(db, key: 3) }
            #expect("\(error.map { String(describing: $0) } ?? "")".contains(#"from JSON column "topics" of Repository"#))
        }
    }

    @Test func associationsGivenByTheirColumns() throws {
        struct IssueInfo: Decodable, FetchableRecord {
            var issue: Issue
            var repository: Repository
            var poster: User
            var labels: [Label]
        }
        struct UserInfo: Decodable, FetchableRecord {
            var user: User
            var repositoryCount: Int
            var issueCount: Int
        }
        let file = try RealDatabaseFile(Self.script)
        try file.open().read { db in
            let infos = try Issue
                .including(required: Issue.repository)
                .including(required: Issue.poster)
                .including(all: Issue.labels.order(Column("name")))
                .order(Column("id"))
                .asRequest(of: IssueInfo.self).fetchAll(db)
            #expect(infos.map(\.repository.owner_name) == ["gitea_admin", "gitea_admin", "jane"])
            #expect(infos.map(\.poster.name) == ["Jane", "gitea_admin", "Jane"])
            #expect(infos.map { $0.labels.map(\.name) } == [["kind/bug", "priority/high"], ["kind/feature"], []])
            let users = try User.annotated(with: User.repositories.count, User.issues.count)
                .order(Column("id")).asRequest(of: UserInfo.self).fetchAll(db)
            #expect(users.map(\.repositoryCount) == [2, 1, 0])
            #expect(users.map(\.issueCount) == [1, 2, 0])
            let bugs = try Issue.joining(required: Issue.labels.filter(Column("name").like("kind/%")))
                .filter(Column("is_closed") == false).fetchAll(db)
            #expect(bugs.map(\.name) == ["Crash on WITHOUT ROWID"])
            let pulls = try Repository.joining(required: Repository.issues.filter(Column("is_pull") == true))
                .fetchAll(db)
            #expect(pulls.map(\.lower_name) == ["trellis"])
            // Without a given key, an association between these tables
            // cannot be inferred: the schema declares none.
            let error = #expect(throws: DatabaseError.self) {
                try Issue.including(required: Issue.belongsTo(User.self)).fetchAll(db)
            }
            #expect(error?.message == "Could not infer foreign key from issue to user")
        }
    }
}
