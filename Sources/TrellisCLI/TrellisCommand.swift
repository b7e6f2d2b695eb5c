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
            var command = try parseAsRoot(InspectCommand.argumentsWithDashedPaths(Array(CommandLine.arguments.dropFirst())))
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
        abstract: "Runs the documented scenarios on a new database file and prints what they fetch.")

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

    @Argument(help: "The SQLite database file. A path that starts with - may follow --: trellis inspect -- -name.sqlite")
    var path: String

    @Option(name: .long, help: "text or json.")
    var format: Format = .text

    /// ArgumentParser reads `-dash.sqlite` as short flags (`-d -a -s -h`...,
    /// help included), and prints the help. After `inspect`, a word that
    /// starts with `-` and is none of its options nor an option's value is
    /// the path when it names an existing file, or when it is a group of
    /// short flags, which `inspect` never takes (its only one is `-h`): it
    /// is moved after `--`, which ends the options, so that a missing file
    /// is reported as missing. Other words are left to ArgumentParser.
    static func argumentsWithDashedPaths(_ arguments: [String]) -> [String] {
        guard arguments.first == "inspect", !arguments.contains("--") else { return arguments }
        let optionsWithValue: Set<String> = ["--format"]
        let options = optionsWithValue.union(["-h", "--help", "-help"])
        var others: [String] = []
        var paths: [String] = []
        var previous: String?
        for word in arguments.dropFirst() {
            let isOptionValue = previous.map(optionsWithValue.contains) ?? false
            let isShortFlagGroup = word.count > 2 && word.hasPrefix("-") && !word.hasPrefix("--")
            if word.count > 1, word.hasPrefix("-"), !isOptionValue, !options.contains(word),
               !optionsWithValue.contains(where: { word.hasPrefix($0 + "=") }),
               isShortFlagGroup || FileManager.default.fileExists(atPath: word)
            {
                paths.append(word)
            } else {
                others.append(word)
            }
            previous = word
        }
        return paths.isEmpty ? arguments : ["inspect"] + others + ["--"] + paths
    }

    func run() throws {
        let report = try SchemaInspector.inspect(path: path)
        switch format {
        case .text: print(ReportRenderer.text(report))
        case .json: print(try ReportRenderer.json(report))
        }
    }
}
