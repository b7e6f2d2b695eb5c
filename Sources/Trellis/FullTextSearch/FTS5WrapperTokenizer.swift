import TrellisSQLite

/// The function a wrapper tokenizer calls for each token it outputs. It
/// throws when FTS5 asks the tokenization to stop: let the error go.
public typealias FTS5WrapperTokenCallback = (_ token: String, _ flags: FTS5TokenFlags) throws -> Void

/// A custom tokenizer that leaves the cutting to another tokenizer, and
/// changes, drops or multiplies the tokens it produces.
///
/// ```swift
/// final class SynonymsTokenizer: FTS5WrapperTokenizer {
///     static let name = "synonyms"
///     let wrappedTokenizer: any FTS5Tokenizer
///
///     init(db: Database, arguments: [String]) throws {
///         wrappedTokenizer = try db.makeTokenizer(.unicode61())
///     }
///
///     func accept(token: String, flags: FTS5TokenFlags, for tokenization: FTS5Tokenization,
///                 tokenCallback: FTS5WrapperTokenCallback) throws {
///         try tokenCallback(token, flags)
///         if token == "first" && !tokenization.contains(.query) {
///             try tokenCallback("1st", flags.union(.colocated))
///         }
///     }
/// }
/// ```
public protocol FTS5WrapperTokenizer: FTS5CustomTokenizer {
    /// The tokenizer whose tokens this one post-processes.
    var wrappedTokenizer: any FTS5Tokenizer { get }

    /// Outputs the tokens that stand for `token`, a token of the wrapped
    /// tokenizer, through `tokenCallback`: none to drop it, several
    /// (`.colocated` after the first) for synonyms. Pass `flags` on.
    ///
    /// - Throws: The error of `tokenCallback`, which must be passed on; any
    ///   error of the implementation, which makes FTS5 fail the statement.
    func accept(
        token: String,
        flags: FTS5TokenFlags,
        for tokenization: FTS5Tokenization,
        tokenCallback: FTS5WrapperTokenCallback) throws
}

/// What the wrapped tokenizer's callback needs to reach the wrapper and
/// FTS5's own callback.
private struct WrapperTokenizationContext {
    let tokenizer: any FTS5WrapperTokenizer
    let tokenization: FTS5Tokenization
    let context: UnsafeMutableRawPointer?
    let tokenCallback: FTS5TokenCallback
}

/// The code that FTS5's callback returned, to stop the tokenization.
private struct TokenCallbackFailure: Error {
    let code: CInt
}

extension FTS5WrapperTokenizer {
    public func tokenize(
        context: UnsafeMutableRawPointer?,
        tokenization: FTS5Tokenization,
        pText: UnsafePointer<CChar>?,
        nText: CInt,
        tokenCallback: @escaping FTS5TokenCallback) -> CInt
    {
        var wrapperContext = WrapperTokenizationContext(
            tokenizer: self, tokenization: tokenization, context: context, tokenCallback: tokenCallback)
        return withUnsafeMutablePointer(to: &wrapperContext) { wrapperContext in
            wrappedTokenizer.tokenize(
                context: UnsafeMutableRawPointer(wrapperContext), tokenization: tokenization,
                pText: pText, nText: nText,
                tokenCallback: { wrapperContext, flags, pToken, nToken, iStart, iEnd in
                    guard let wrapperContext else { return SQLITE_ERROR }
                    let context = wrapperContext.assumingMemoryBound(to: WrapperTokenizationContext.self).pointee
                    let token = String(fts5Token: pToken, count: nToken)
                    do {
                        try context.tokenizer.accept(
                            token: token, flags: FTS5TokenFlags(rawValue: flags), for: context.tokenization,
                            tokenCallback: { token, flags in
                                var token = token
                                let code = token.withUTF8 { bytes in
                                    bytes.withMemoryRebound(to: CChar.self) { bytes in
                                        context.tokenCallback(
                                            context.context, flags.rawValue, bytes.baseAddress, CInt(bytes.count),
                                            iStart, iEnd)
                                    }
                                }
                                if code != SQLITE_OK { throw TokenCallbackFailure(code: code) }
                            })
                        return SQLITE_OK
                    } catch let failure as TokenCallbackFailure {
                        return failure.code
                    } catch {
                        return SQLITE_ERROR
                    }
                })
        }
    }
}
