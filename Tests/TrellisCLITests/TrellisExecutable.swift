import Foundation

/// The `trellis` executable built beside the tests, for the tests that run
/// the command itself.
enum TrellisExecutable {
    /// Its location, when it was built.
    static var url: URL? {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [directory, directory.deletingLastPathComponent()] {
            let url = candidate.appendingPathComponent("trellis")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return nil
    }

    /// Runs `trellis` with `arguments`, in `folder` when given: its exit
    /// status, output and errors.
    static func run(_ arguments: [String], in folder: String? = nil) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        if let folder { process.currentDirectoryURL = URL(fileURLWithPath: folder) }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // The output is read before the wait: a full pipe would block the
        // process.
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outputData, as: UTF8.self), String(decoding: errorData, as: UTF8.self))
    }
}
