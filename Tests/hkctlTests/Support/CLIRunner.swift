import Foundation
import Testing
import TestKit
import TextSupport

/// Runs the built `hkctl` binary as a subprocess against a temporary store.
struct CLIResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

struct CLIRunner {
    /// The store folder every command of this runner uses.
    let storePath: String
    /// Extra environment for every command.
    var environment: [String: String] = [:]

    /// The hkctl binary: `$HKCTL_BINARY`, else next to the test bundle (Linux) or one level up (macOS).
    static let binaryURL: URL = {
        if let path = ProcessInfo.processInfo.environment["HKCTL_BINARY"] { return URL(fileURLWithPath: path) }
        var folder = Bundle.main.bundleURL
        #if os(macOS)
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            folder = bundle.bundleURL.deletingLastPathComponent()
        }
        #endif
        if !folder.hasDirectoryPath { folder = folder.deletingLastPathComponent() }
        let candidate = folder.appendingPathComponent("hkctl")
        if FileManager.default.isExecutableFile(atPath: candidate.path) {
            checkNotOlderThanItsCode(candidate, buildFolder: folder)
            return candidate
        }
        // Fallback: the debug build folder of this package.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/hkctl")
    }()

    /// No test target depends on the executable (Package.swift), so a build of the tests alone (`swift build
    /// --target hkctlTests`, `swift test --test-product ...`) can leave an `hkctl` older than the code it runs: stop
    /// then, rather than test an old binary. Plain `swift test` and `swift build` always link it.
    private static func checkNotOlderThanItsCode(_ binary: URL, buildFolder: URL) {
        let objects = buildFolder.appendingPathComponent("HKCtlCommands.build").path
        let files = FileManager.default
        func modified(_ path: String) -> Date? { (try? files.attributesOfItem(atPath: path))?[.modificationDate] as? Date }
        let compiled = ((try? files.contentsOfDirectory(atPath: objects)) ?? [])
            .filter { $0.hasSuffix(".o") }.compactMap { modified(objects + "/" + $0) }
        guard let built = modified(binary.path), let code = compiled.max() else { return }
        if built < code {
            fatalError("\(binary.path) is older than the HKCtlCommands it is built from: run `swift build` (or plain "
                       + "`swift test`) so that the tests run the current hkctl")
        }
    }

    /// A runner with a fresh, not yet created store path inside a new temporary folder.
    static func withTemporaryStore<T>(_ body: (CLIRunner) throws -> T) throws -> T {
        let folder = TestSupport.scratchRoot + "hkctl-e2e-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        return try body(CLIRunner(storePath: folder + "/store"))
    }

    /// ``withTemporaryStore(_:)`` holding the readings given, each added as `hkctl add TYPE VALUE --at TIME -q`.
    static func withTemporaryStore<T>(adding type: String, _ readings: [(value: String, time: String)],
                                      _ body: (CLIRunner) throws -> T) throws -> T {
        try withTemporaryStore { cli in
            for (value, time) in readings {
                let added = try cli.run(["add", type, value, "--at", time, "-q"])
                expectEqual(added.status, 0, "\(added.stderr)")
            }
            return try body(cli)
        }
    }

    /// ``withTemporaryStore(_:)`` with one water sample (500 mL at 08:00) and a scratch folder `out` beside the store,
    /// for output files.
    static func withOneWaterSampleAndOutputFolder(_ body: (CLIRunner, String) throws -> Void) throws {
        try withTemporaryStore { cli in
            try #require(try cli.run(["add", "water", "500mL", "--at", "08:00"]).status == 0)
            let folder = (cli.storePath as NSString).deletingLastPathComponent + "/out"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try body(cli, folder)
        }
    }

    /// Runs `hkctl ARGS` with `--store` set, the zone pinned to UTC and now pinned to 2024-06-01T12:00:00Z
    /// unless the environment given overrides them.
    @discardableResult
    func run(_ arguments: [String], stdin: String? = nil, environment extra: [String: String] = [:],
             binary: URL = CLIRunner.binaryURL) throws -> CLIResult {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        var env = ["PATH": "/usr/bin:/bin", "HKCTL_STORE": storePath, "TZ": "UTC",
                   "HKCTL_NOW": "2024-06-01T12:00:00Z", "HOME": NSTemporaryDirectory()]
        env.merge(environment) { $1 }
        env.merge(extra) { $1 }
        process.environment = env
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CLIResult(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                         stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Whether `unshare -m` works here (root, or user namespaces allowed): it runs a command in a mount namespace of
    /// its own, whose copies of the mounts have new ids while the device numbers stay the same.
    static let canUnshareMounts: Bool = {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        process.arguments = ["-m", "true"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()

    /// Runs a configured `process` with `standardInput` (empty unless given), and returns its exit status and what it
    /// wrote.
    static func collect(_ process: Process, standardInput: FileHandle = .nullDevice) throws -> CLIResult {
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = standardInput
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CLIResult(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                         stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Runs `hkctl ARGS` on a pseudo-terminal (python3's `pty` drives it), answering each `[y/N]` prompt in turn
    /// with the next of `answers`.
    ///
    /// - Returns: hkctl's exit status.
    func runOnTerminal(_ arguments: [String], answers: [String]) throws -> Int32 {
        let script = """
            import os, pty, sys
            answers, command = sys.argv[1].split(","), sys.argv[2:]
            pid, fd = pty.fork()
            if pid == 0:
                os.execv(command[0], command)
            out = b""
            for answer in answers:
                while b"[y/N]" not in out:
                    out += os.read(fd, 1024)
                out = out.split(b"[y/N]", 1)[1]
                os.write(fd, (answer + "\\n").encode())
            try:
                while os.read(fd, 1024):
                    pass
            except OSError:
                pass
            _, status = os.waitpid(pid, 0)
            sys.exit(os.waitstatus_to_exitcode(status))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, answers.joined(separator: ","), CLIRunner.binaryURL.path] + arguments
        process.environment = ["HKCTL_STORE": storePath, "TZ": "UTC", "HKCTL_NOW": "2024-06-01T12:00:00Z",
                               "PATH": "/usr/local/bin:/usr/bin:/bin:" + (ProcessInfo.processInfo.environment["PATH"] ?? "")]
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Every file under the store with its bytes, to check that a failed command changed nothing.
    func snapshot() -> [String: Data] {
        var files: [String: Data] = [:]
        guard let enumerator = FileManager.default.enumerator(atPath: storePath) else { return files }
        while let relative = enumerator.nextObject() as? String {
            let path = storePath + "/" + relative
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[relative] = FileManager.default.contents(atPath: path) ?? Data()
            } else {
                files[relative + "/"] = Data()
            }
        }
        return files
    }
}
