import Foundation
import StrataSchemaKit

struct UsageError: Error { var message: String }

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(1)
}
