import Foundation
import FuzzSupport
import FuzzedInspector

/// The file that each input becomes: one per process, so that fuzzers
/// run in parallel (`-jobs`) do not share it.
private let path = FileManager.default.temporaryDirectory
    .appendingPathComponent("trellis-inspector-fuzz-\(ProcessInfo.processInfo.processIdentifier).sqlite").path

/// `trellis inspect` on a mutated database file: it reports the schema or
/// throws, within its time limit, and never crashes. The file is opened
/// read-only and defensively, so it must not change.
@_cdecl("LLVMFuzzerTestOneInput")
public func inspectorFuzzer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Data(fuzzInput(data, size))
    for suffix in ["-journal", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    guard FileManager.default.createFile(atPath: path, contents: bytes) else {
        fuzzFailure("can not write \(path)")
    }
    let start = Date()
    do {
        let report = try SchemaInspector.inspect(path: path, timeLimit: 1)
        _ = ReportRenderer.text(report)
        _ = try ReportRenderer.json(report)
    } catch {
        // An error is the expected answer to most mutations.
    }
    // The time limit interrupts SQLite; what remains must be quick.
    let elapsed = Date().timeIntervalSince(start)
    if elapsed > 5 { fuzzFailure("the inspection took \(elapsed) s") }
    if (try? Data(contentsOf: URL(fileURLWithPath: path))) != bytes { fuzzFailure("the inspection changed the file") }
    return 0
}

/// The entry point, in the file of the test function, which it refers
/// to as a C function: SwiftPM links the executable's `main` to
/// `InspectorFuzzer_main` on Linux, and `-parse-as-library` leaves Swift from
/// defining one.
@_cdecl("InspectorFuzzer_main")
public func inspectorFuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(inspectorFuzzer)
}
