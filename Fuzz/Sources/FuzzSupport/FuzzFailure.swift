#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Stops the fuzzer on a broken invariant: libFuzzer saves the input of a
/// crash, and `abort()` is one. A thrown error is not a failure: it is the
/// answer Trellis owes to bad input.
public func fuzzFailure(_ message: String) -> Never {
    // Written to standard error at once: `abort()` drops what standard
    // output still buffers, and the message with it.
    var line = "Broken invariant: \(message)\n"
    line.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
    abort()
}

/// The bytes libFuzzer hands to `LLVMFuzzerTestOneInput`.
public func fuzzInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
    guard let data, size > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: data, count: size))
}
