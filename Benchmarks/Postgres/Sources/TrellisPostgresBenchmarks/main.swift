import FluentKit
import FluentPostgresDriver
import Foundation
import NIOPosix
import PostgresNIO
import TrellisPostgres

// Runs the workloads on raw postgres-nio, Trellis and Fluent, on the
// PostgreSQL server that TRELLIS_POSTGRES_URL names, in one process, and
// prints a markdown table of the medians and ratios.
//
//     swift run -c release TrellisPostgresBenchmarks [--quick] [--only W2c,W6] [--backends Trellis] [--runs 5] [--json results.json]
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
                guard let value = iterator.next() else { throw BenchmarkError("--json needs a path") }
                jsonPath = value
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
    var trellisOverFluent: Double?
    var fluentOverRaw: Double?
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

/// The median of the per-run ratios of two backends, so that machine drift
/// cancels.
func ratio(_ runs: [[String: Double]], _ numerator: String, _ denominator: String) -> Double? {
    let ratios = runs.compactMap { run in run[numerator].flatMap { top in run[denominator].map { top / $0 } } }
    return ratios.isEmpty ? nil : median(ratios)
}

func measure(
    options: Options, sizes: Sizes, backends: [any Backend], setup: PostgresClient) async throws -> [Measure]
{
    var measures: [Measure] = []
    for (workload, description) in workloads where options.only.isEmpty || options.only.contains(workload.uppercased()) {
        var tasks: [(name: String, task: BenchmarkTask)] = []
        for backend in backends where options.backends.isEmpty || options.backends.contains(backend.name.lowercased()) {
            if let task = try backend.task(workload, sizes: sizes) { tasks.append((backend.name, task)) }
        }
        // Warm-up: connections opened, statements prepared.
        for (_, task) in tasks {
            try await setup.withConnection { try await Fixture.prepare(workload, on: $0) }
            _ = try await task.run()
        }
        var times: [String: [Double]] = [:]
        var runs: [[String: Double]] = []
        for _ in 0..<options.runs {
            var runTimes: [String: Double] = [:]
            var checksums: [String: Int] = [:]
            for (name, task) in tasks {
                try await setup.withConnection { try await Fixture.prepare(workload, on: $0) }
                let start = DispatchTime.now().uptimeNanoseconds
                var checksum = try await task.run()
                let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
                if let verified = try await setup.withConnection({ try await Fixture.verification(workload, on: $0) }) {
                    checksum = verified
                }
                runTimes[name] = milliseconds
                checksums[name] = checksum
                times[name, default: []].append(milliseconds)
            }
            guard Set(checksums.values).count <= 1 else {
                throw BenchmarkError("\(workload): the backends disagree: \(checksums)")
            }
            runs.append(runTimes)
        }
        measures.append(Measure(
            workload: workload, description: description,
            milliseconds: times.mapValues(median),
            trellisOverRaw: ratio(runs, "Trellis", "raw postgres-nio"),
            trellisOverFluent: ratio(runs, "Trellis", "Fluent"),
            fluentOverRaw: ratio(runs, "Fluent", "raw postgres-nio")))
        FileHandle.standardError.write(Data("\(workload) done\n".utf8))
    }
    return measures
}

func report(_ measures: [Measure], options: Options) throws {
    func format(_ value: Double?) -> String {
        value.map { String(format: "%.2f", $0) } ?? "-"
    }
    print("| workload | raw postgres-nio ms | Trellis ms | Fluent ms | Trellis/raw | Trellis/Fluent | Fluent/raw |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for measure in measures {
        print("| \(measure.workload) | \(format(measure.milliseconds["raw postgres-nio"])) | \(format(measure.milliseconds["Trellis"])) | "
            + "\(format(measure.milliseconds["Fluent"])) | \(format(measure.trellisOverRaw)) | \(format(measure.trellisOverFluent)) | "
            + "\(format(measure.fluentOverRaw)) |")
    }
    print("\n\(options.quick ? "Quick run (a tenth of the sizes)" : "Full sizes"), median of \(options.runs) runs; ratios are medians of per-run ratios.")
    if let jsonPath = options.jsonPath {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(measures).write(to: URL(fileURLWithPath: jsonPath))
    }
}

func main() async throws {
    let options = try Options(arguments: Array(CommandLine.arguments.dropFirst()))
    let sizes = options.quick ? Sizes.quick() : Sizes()
    let server = try Server(environment: ProcessInfo.processInfo.environment)

    // A client for each backend that pools its own connections, so that
    // none waits for another's.
    let setupClient = PostgresClient(configuration: server.clientConfiguration)
    let rawClient = PostgresClient(configuration: server.clientConfiguration)
    let trellisClient = PostgresClient(configuration: server.clientConfiguration)
    let databases = Databases(threadPool: .singleton, on: MultiThreadedEventLoopGroup.singleton)
    databases.use(
        .postgres(configuration: SQLPostgresConfiguration(
            hostname: server.host, port: server.port, username: server.username, password: server.password,
            database: server.database, tls: .disable)),
        as: .psql)
    guard let fluentDatabase = databases.database(.psql, logger: Server.logger, on: MultiThreadedEventLoopGroup.singleton.any()) else {
        throw BenchmarkError("Fluent has no PostgreSQL database")
    }

    let measures: [Measure]
    do {
        measures = try await run(options: options, sizes: sizes, clients: (setupClient, rawClient, trellisClient), fluent: fluentDatabase)
    } catch {
        // Fluent's pools must be shut down before they are freed, even
        // after an error.
        await databases.shutdownAsync()
        throw error
    }
    await databases.shutdownAsync()
    try report(measures, options: options)
}

func run(
    options: Options, sizes: Sizes, clients: (setup: PostgresClient, raw: PostgresClient, trellis: PostgresClient),
    fluent fluentDatabase: any FluentKit.Database) async throws -> [Measure]
{
    let (setupClient, rawClient, trellisClient) = clients
    return try await withThrowingTaskGroup(of: Void.self) { group in
        for client in [setupClient, rawClient, trellisClient] {
            group.addTask { await client.run() }
        }
        defer { group.cancelAll() }
        try await setupClient.withConnection { try await Fixture.create(on: $0, sizes: sizes) }
        let backends: [any Backend] = [
            RawBackend(client: rawClient),
            TrellisBackend(database: PostgreSQLDatabase(client: trellisClient)),
            FluentBackend(database: fluentDatabase),
        ]
        return try await measure(options: options, sizes: sizes, backends: backends, setup: setupClient)
    }
}

do {
    try await main()
} catch {
    FileHandle.standardError.write(Data("benchmark failed: \(String(reflecting: error))\n".utf8))
    exit(1)
}
