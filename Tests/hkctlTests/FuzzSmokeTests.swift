import Foundation
import Testing

/// Runs `fuzz/run` (libFuzzer over the export.xml reader, the store's line reader, the unit parser, the time
/// parser and the HTTP request reader) for a short smoke: 5 s a target (25 s in all; the compile takes the rest of
/// its minutes on a busy machine), or $HKCTL_FUZZ_SECONDS (`fuzz/run` alone runs 30 s a target; this is the suite's longest test, so it
/// stays short), compiled with `--quick` (no optimisation and no AddressSanitizer: a sixth of the compile's CPU time;
/// the on-demand `fuzz/run` keeps both, for more runs a second and memory errors caught). Skipped with a message when this toolchain cannot build fuzzers
/// (exit 3 from the script).
struct FuzzSmokeTests {
    @Test(.timeLimit(.minutes(20))) func everyFuzzTargetRunsWithoutACrash() async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let script = root.appendingPathComponent("fuzz/run").path
        try #require(FileManager.default.isExecutableFile(atPath: script), "fuzz/run is missing")
        let seconds = ProcessInfo.processInfo.environment["HKCTL_FUZZ_SECONDS"] ?? "5"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [script, "--quick", "--seconds", seconds]
        process.currentDirectoryURL = root
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        // Minutes of waiting happen on a thread of their own: a test that blocks one of the cooperative pool's few
        // threads that long starves every async test running beside it.
        let text = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<String, Error>) in
            Thread {
                do {
                    try process.run()
                    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                    process.waitUntilExit()
                    continuation.resume(returning: text)
                } catch {
                    continuation.resume(throwing: error)
                }
            }.start()
        }
        // 3: the toolchain cannot build fuzzers at all (skipped); 4: the targets no longer compile (a failure).
        if process.terminationStatus == 3 {
            print("SKIPPED fuzz smoke: this toolchain cannot build libFuzzer targets:\n\(text)")
            return
        }
        print(text)
        #expect(process.terminationStatus == 0, "a fuzz target crashed:\n\(text)")
        for target in ["xml", "storeline", "unit", "time", "http"] {
            #expect(text.contains("fuzz/run: \(target): no crash in"), "\(target) did not run:\n\(text)")
        }
    }
}
