import BenchSQLite
import Foundation

// Runs the workloads on raw SQLite, Trellis and GRDB in one process and
// prints a markdown table of the medians and ratios.
//
//     swift run -c release TrellisBenchmarks [--quick] [--only W3,W4] [--backends Trellis] [--runs 5] [--json results.json]
//
// `--backends` runs some backends only: for profiling one of them (the
// checksums are still compared between those that ran).

struct Options {
    var quick = false
    var only: Set<String> = []
    var backends: Set<String> = []
    var runs = 5
    var jsonPath: String?

    init(arguments: [String]) throws {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--quick": quick = true
            case "--only":
                guard let value = iterator.next() else { throw BenchmarkError("--only needs a workload") }
                only.formUnion(value.split(separator: ",").map { String($0).uppercased() })
            case "--backends":
                guard let value = iterator.next() else { throw BenchmarkError("--backends needs a backend name") }
                backends.formUnion(value.split(separator: ",").map { String($0).lowercased() })
            case "--runs":
                guard let value = iterator.next(), let runs = Int(value), runs > 0 else { throw BenchmarkError("--runs needs a number") }
                self.runs = runs
            case "--json":
                jsonPath = iterator.next()
            default:
                throw BenchmarkError("unknown option \(argument)")
            }
        }
    }
}

struct Measure: Codable {
    var workload: String
    var description: String
    var milliseconds: [String: Double]
    var trellisOverRaw: Double?
    var trellisOverGRDB: Double?
    var grdbOverRaw: Double?
    /// The least ratio to raw SQLite that the workload's form of records
    /// can reach: Codable decoding (see `CodableFloorBackend`), or objects
    /// of classes (see `ObjectFloorBackend`).
    var floorOverRaw: Double?
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

/// The checksum of what a write workload left in the database.
func verification(_ workload: String, path: String) throws -> Int? {
    let sql: String
    switch workload {
    case "W1c", "W1h", "W1m": sql = "SELECT COUNT(*) * 1000000 + TOTAL(id + c1 + c2 + c3 + c4 + c5 + c6 + c7 + c8 + c9) FROM insertedItem"
    case "O1", "O1m": sql = "SELECT COUNT(*) * 1000000 + TOTAL(id + authorId) FROM ObjBook"
    default: return nil
    }
    let db = try RawDatabase(path: path)
    let statement = try db.prepare(sql)
    defer { sqlite3_finalize(statement) }
    guard sqlite3_step(statement) == SQLITE_ROW else { throw BenchmarkError("verification failed") }
    return Int(sqlite3_column_double(statement, 0))
}

func main() throws {
    let options = try Options(arguments: Array(CommandLine.arguments.dropFirst()))
    let sizes = options.quick ? Sizes.quick() : Sizes()
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-benchmarks-\(ProcessInfo.processInfo.processIdentifier)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("bench.sqlite").path
    try Fixture.create(path: path, sizes: sizes)

    let backends: [any Backend] = [RawBackend(), TrellisBackend(), GRDBBackend(), TrellisObjectsBackend(), CodableFloorBackend(), ObjectFloorBackend()]
    var measures: [Measure] = []
    for (workload, description) in workloads where options.only.isEmpty || options.only.contains(workload.uppercased()) {
        var tasks: [(name: String, task: Task)] = []
        for backend in backends where options.backends.isEmpty || options.backends.contains(backend.name.lowercased()) {
            let twin = twinWorkload(of: workload)
            let twinTask = { try twin.flatMap { backend.standsInForTwins ? try backend.task($0, sizes: sizes, path: path) : nil } }
            if let task = try backend.task(workload, sizes: sizes, path: path) ?? twinTask() {
                tasks.append((backend.name, task))
            }
        }
        // Warm-up.
        for (_, task) in tasks {
            try task.prepare()
            _ = try task.run()
        }
        var times: [String: [Double]] = [:]
        var trellisOverRaw: [Double] = []
        var trellisOverGRDB: [Double] = []
        var grdbOverRaw: [Double] = []
        var floorOverRaw: [Double] = []
        for _ in 0..<options.runs {
            var runTimes: [String: Double] = [:]
            var checksums: [String: Int] = [:]
            for (name, task) in tasks {
                try task.prepare()
                let start = DispatchTime.now().uptimeNanoseconds
                var checksum = try task.run()
                let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
                if let verified = try verification(workload, path: path) { checksum = verified }
                runTimes[name] = milliseconds
                checksums[name] = checksum
                times[name, default: []].append(milliseconds)
            }
            guard Set(checksums.values).count == 1 else {
                throw BenchmarkError("\(workload): the backends disagree: \(checksums)")
            }
            if let raw = runTimes["raw SQLite"], let trellis = runTimes["Trellis"] { trellisOverRaw.append(trellis / raw) }
            if let grdb = runTimes["GRDB"], let trellis = runTimes["Trellis"] { trellisOverGRDB.append(trellis / grdb) }
            if let grdb = runTimes["GRDB"], let raw = runTimes["raw SQLite"] { grdbOverRaw.append(grdb / raw) }
            if let floor = runTimes["Codable floor"] ?? runTimes["Object floor"], let raw = runTimes["raw SQLite"] {
                floorOverRaw.append(floor / raw)
            }
        }
        let measure = Measure(
            workload: workload, description: description,
            milliseconds: times.mapValues(median),
            trellisOverRaw: trellisOverRaw.isEmpty ? nil : median(trellisOverRaw),
            trellisOverGRDB: trellisOverGRDB.isEmpty ? nil : median(trellisOverGRDB),
            grdbOverRaw: grdbOverRaw.isEmpty ? nil : median(grdbOverRaw),
            floorOverRaw: floorOverRaw.isEmpty ? nil : median(floorOverRaw))
        measures.append(measure)
        FileHandle.standardError.write(Data("\(workload) done\n".utf8))
    }

    func format(_ value: Double?) -> String {
        value.map { String(format: "%.2f", $0) } ?? "-"
    }
    print("| workload | raw SQLite ms | Trellis ms | GRDB ms | Trellis/raw | Trellis/GRDB | GRDB/raw | floor/raw |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for measure in measures {
        print("| \(measure.workload) | \(format(measure.milliseconds["raw SQLite"])) | \(format(measure.milliseconds["Trellis"])) | "
            + "\(format(measure.milliseconds["GRDB"])) | \(format(measure.trellisOverRaw)) | \(format(measure.trellisOverGRDB)) | \(format(measure.grdbOverRaw)) | "
            + "\(format(measure.floorOverRaw)) |")
    }
    print("\n\(options.quick ? "Quick run (a tenth of the sizes)" : "Full sizes"), median of \(options.runs) runs; ratios are medians of per-run ratios.")
    print("Floor: raw SQLite plus the synthesized init(from:) or encode(to:) of the same types, with a decoder or encoder that does no work (Codable rows);")
    print("raw SQLite plus making the same objects, a class and its ToOne relation each (O1m, O2m, O3m).")
    if let jsonPath = options.jsonPath {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(measures).write(to: URL(fileURLWithPath: jsonPath))
    }
}

do {
    try main()
} catch {
    FileHandle.standardError.write(Data("benchmark failed: \(error)\n".utf8))
    exit(1)
}
