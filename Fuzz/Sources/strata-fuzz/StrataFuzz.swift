// strata-fuzz: a libFuzzer target over Strata's file decoder and open path (Fuzz/README.md).
//
// Built for fuzzing (see .ci/run):
//   swift build --package-path Fuzz --sanitize=fuzzer -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table \
//       -Xswiftc -DSTRATA_FUZZING --scratch-path .build-fuzz --product strata-fuzz
//   .build-fuzz/debug/strata-fuzz -max_total_time=60 <new-corpus-dir> Fuzz/seeds
// A plain build (no libFuzzer) replays inputs: `strata-fuzz FILE...` runs each once.
//
// Environment:
//   STRATA_FUZZ_REALM=1               also open each file through the Realm API (off in CI for now)
//   STRATA_FUZZ_MAKE_SEEDS=DIR         write the seed corpus to DIR and exit
//   STRATA_FUZZ_WRITE_FILE=PATH        with one input file: write the data file it describes to PATH and exit
//   STRATA_FUZZ_VERBOSE=1              print what each run saw (errors per step), for triage
import Foundation
import StrataFuzzKit

/// The program: libFuzzer's `main` calls `LLVMFuzzerInitialize` (setup, and the modes that make
/// seeds or write a file) and then `LLVMFuzzerTestOneInput` per input; the replay build's `main`
/// (`ReplayMain`) does the setup, then runs each input named on the command line once.
enum StrataFuzz {
    nonisolated(unsafe) static var harness: Harness!

    static func fail(_ message: String, status: Int32) -> Never {
        FileHandle.standardError.write(Data("strata-fuzz: \(message)\n".utf8))
        exit(status)
    }

    /// The inputs named on the command line (files, or every file of a directory); flags are libFuzzer's.
    static func inputFiles(_ args: [String]) -> [String] {
        var files: [String] = []
        for a in args where !a.hasPrefix("-") {
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: a, isDirectory: &isDir) else { continue }
            if isDir.boolValue {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: a)) ?? []
                files += names.sorted().map { a + "/" + $0 }
            } else {
                files.append(a)
            }
        }
        return files
    }

    /// Makes the base files, and runs the modes chosen by the environment (which exit).
    static func setUp() {
        let environment = ProcessInfo.processInfo.environment
        do {
            harness = try Harness(realm: environment["STRATA_FUZZ_REALM"] == "1")
        } catch {
            fail("cannot make the base files: \(error)", status: 2)
        }
        atexit { StrataFuzz.harness?.cleanUp() }

        if let dir = environment["STRATA_FUZZ_MAKE_SEEDS"] {
            do {
                try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
                let seeds = Seeds.all(bases: harness.bases)
                for (name, bytes) in seeds { try Data(bytes).write(to: URL(fileURLWithPath: dir + "/" + name)) }
                print("wrote \(seeds.count) seeds to \(dir)")
                exit(0)
            } catch {
                fail("\(error)", status: 1)
            }
        }

        if let out = environment["STRATA_FUZZ_WRITE_FILE"] {
            guard let input = inputFiles(Array(CommandLine.arguments.dropFirst())).first,
                let data = FileManager.default.contents(atPath: input)
            else {
                fail("STRATA_FUZZ_WRITE_FILE needs one input file", status: 2)
            }
            let (file, options) = harness.materialize(Array(data))
            guard FileManager.default.createFile(atPath: out, contents: Data(file)) else {
                fail("cannot write \(out)", status: 1)
            }
            print(
                "wrote \(file.count) bytes to \(out) (base \(options.base), raw \(options.raw), resealed \(options.reseal), unclean \(options.unclean), write \(options.write), verifyAll \(options.verifyAll))"
            )
            exit(0)
        }
    }
}

#if STRATA_FUZZING
    /// libFuzzer calls this once, before fuzzing.
    @_cdecl("LLVMFuzzerInitialize")
    public func fuzzerInitialize(
        _ argc: UnsafeMutablePointer<Int32>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
    ) -> Int32 {
        StrataFuzz.setUp()
        return 0
    }

    /// libFuzzer calls this with each input.
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        StrataFuzz.harness.run(size == 0 || data == nil ? [] : Array(UnsafeBufferPointer(start: data, count: size)))
        return 0
    }
#else
    /// The replay build's entry point: runs each input file (or every file of a directory) once.
    @main
    enum ReplayMain {
        static func main() {
            StrataFuzz.setUp()
            let files = StrataFuzz.inputFiles(Array(CommandLine.arguments.dropFirst()))
            if files.isEmpty {
                print(
                    "strata-fuzz (replay build): give input files or directories; build with -DSTRATA_FUZZING and --sanitize=fuzzer to fuzz (Fuzz/README.md)"
                )
            }
            for f in files {
                guard let data = FileManager.default.contents(atPath: f) else { continue }
                StrataFuzz.harness.run(Array(data))
                print("ok \(f)")
            }
            exit(0)
        }
    }
#endif
