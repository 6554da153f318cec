/// What the parser functions throw: one pointer, not the ~120-byte `QueryParseError`.
///
/// Stack use matters because recursion depth is up to the user (`maximumNestingDepth` levels).
/// Measured on x86_64 Linux, Swift 6.3, the smallest thread stack that parses a depth-100 query:
/// as a `struct` parser throwing `QueryParseError` directly, 912 KiB (debug) and 336 KiB (release);
/// as this class throwing `ParseFailure`, with error messages built out of line, 240 KiB and
/// 144 KiB (of which ~24 KiB is the thread's own baseline).
final class ParseFailure: Error {
    let error: QueryParseError
    init(_ error: QueryParseError) { self.error = error }
}
