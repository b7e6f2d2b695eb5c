#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Stops the fuzzer on a broken invariant: libFuzzer saves the input of a
/// crash, and `abort()` is one. A thrown error is not a failure: it is the
/// answer Trellis owes to bad input.
public func fuzzFailure(_ message: String) -> Never {
    print("Broken invariant: \(message)")
    abort()
}

/// The bytes libFuzzer hands to `LLVMFuzzerTestOneInput`.
public func fuzzInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
    guard let data, size > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: data, count: size))
}
