extension String {
    /// The string as an identifier in the arguments of a full-text module:
    /// bare when it is a plain name (`title`, as GRDB writes it), quoted
    /// otherwise (`"first name"`), so that any name is safe.
    var moduleArgumentIdentifier: String {
        isPlainModuleArgument ? self : quotedDatabaseIdentifier
    }

    /// The string as the value of a module option: bare when it is a plain
    /// word (`detail=column`), an SQL string literal otherwise.
    var moduleArgumentValue: String {
        isPlainModuleArgument ? self : sqlQuotedLiteral
    }

    private var isPlainModuleArgument: Bool {
        guard let first = utf8.first, first == UInt8(ascii: "_") || first.isASCIILetter else { return false }
        return utf8.allSatisfy { $0 == UInt8(ascii: "_") || $0.isASCIILetter || $0.isASCIIDigit }
    }
}

extension UInt8 {
    fileprivate var isASCIILetter: Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self)
    }

    fileprivate var isASCIIDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self)
    }
}
