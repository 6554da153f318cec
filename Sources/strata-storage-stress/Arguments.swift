import StrataStorage
import StrataStressWorkload
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

struct Arguments {
    var values: [String: String] = [:]
    init(_ argv: [String]) {
        var i = 1
        while i < argv.count {
            let a = argv[i]
            guard a.hasPrefix("--") else { fail("unexpected argument '\(a)'") }
            guard i + 1 < argv.count else { fail("\(a) needs a value") }
            values[String(a.dropFirst(2))] = argv[i + 1]
            i += 2
        }
    }
    func string(_ name: String) -> String {
        guard let v = values[name] else { fail("missing --\(name)") }
        return v
    }
    func int(_ name: String, default d: Int? = nil) -> Int {
        guard let s = values[name] else {
            if let d { return d }
            fail("missing --\(name)")
        }
        guard let v = Int(s) else { fail("--\(name) needs a number, got '\(s)'") }
        return v
    }
}
