/// Where a ``DumpFormat`` prints: a text stream, or the standard output.
///
/// ```swift
/// mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) {
///     stream.write("end\n")
/// }
/// ```
public struct DumpStream: TextOutputStream {
    private var base: (any TextOutputStream)?
    private var needsMargin = false
    private var isEmpty = true

    /// A stream that prints to `base`, or to the standard output when
    /// `base` is nil.
    public init(_ base: (any TextOutputStream)? = nil) {
        self.base = base
    }

    /// Prints `string`.
    public mutating func write(_ string: String) {
        if string.isEmpty { return }
        if needsMargin {
            needsMargin = false
            output("\n")
        }
        output(string)
        isEmpty = false
    }

    /// Separates what was printed from what comes next with an empty
    /// line, if anything was printed and anything comes next.
    public mutating func margin() {
        if !isEmpty { needsMargin = true }
    }

    private mutating func output(_ string: String) {
        if var stream = base {
            stream.write(string)
            base = stream
        } else {
            print(string, terminator: "")
        }
    }
}
