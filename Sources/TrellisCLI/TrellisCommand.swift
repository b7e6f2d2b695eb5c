import ArgumentParser
import Foundation
import TrellisCLICore

/// The `trellis` command: a demo on an embedded database, and an inspector
/// for existing databases.
@main
struct TrellisCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trellis",
        abstract: "Typed records and relations on SQLite.",
        subcommands: [DemoCommand.self, InspectCommand.self])

    /// Errors are one line on standard error and a non-zero exit status,
    /// never a stack trace.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                print(fullMessage(for: error))
            } else {
                let message = (error as? CommandError)?.description ?? message(for: error)
                FileHandle.standardError.write(Data(("trellis: " + (message.split(separator: "\n").first.map(String.init) ?? message) + "\n").utf8))
            }
            Foundation.exit(code.rawValue)
        }
    }
}

struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Runs the seed scenarios on a new database file and prints what they fetch.")

    @Option(name: .long, help: "The database file to create (a previous demo database is recreated; any other file is left alone).")
    var database: String = Demo.defaultPath

    func run() throws {
        try Demo.run(path: database) { print($0) }
    }
}

struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Lists the tables of a database and the associations Trellis can infer. The file is opened read-only.")

    enum Format: String, ExpressibleByArgument {
        case text, json
    }

    @Argument(help: "The SQLite database file.")
    var path: String

    @Option(name: .long, help: "text or json.")
    var format: Format = .text

    func run() throws {
        let report = try SchemaInspector.inspect(path: path)
        switch format {
        case .text: print(ReportRenderer.text(report))
        case .json: print(try ReportRenderer.json(report))
        }
    }
}
