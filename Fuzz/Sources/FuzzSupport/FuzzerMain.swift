import FuzzDriver

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Hands the process to libFuzzer, which calls `test` with each input and
/// reads its options (`-max_total_time=60`, a corpus folder...) from the
/// command line.
public func runFuzzer(_ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(trellis_fuzz_run(&argc, &argv, test))
}
