import Foundation

/// Standard output in large writes (a `print` per object flushes per line when piped).
struct OutputBuffer {
    private var buffer = ""

    mutating func append(_ s: String) {
        buffer += s
        if buffer.utf8.count >= 1 << 16 { flush() }
    }

    mutating func flush() {
        guard !buffer.isEmpty else { return }
        FileHandle.standardOutput.write(Data(buffer.utf8))
        buffer = ""
    }
}
