#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// An `hkctl` process started in the background, its output going to files (so no pipe fills up while many run).
struct Spawned {
    let process: Process
    let stdoutPath: String
    let stderrPath: String

    /// Starts `hkctl ARGUMENTS` against `cli`'s store with the usual pinned zone and clock, crash backtraces off.
    static func start(_ arguments: [String], cli: CLIRunner, outputFolder: String, label: String,
                      environment extra: [String: String] = [:]) throws -> Spawned {
        let process = Process()
        process.executableURL = CLIRunner.binaryURL
        process.arguments = arguments
        var environment = ["PATH": "/usr/bin:/bin", "HKCTL_STORE": cli.storePath, "TZ": "UTC",
                           "HKCTL_NOW": "2024-06-01T12:00:00Z", "HOME": NSTemporaryDirectory(),
                           "SWIFT_BACKTRACE": "enable=no"]
        environment.merge(extra) { $1 }
        process.environment = environment
        let stdoutPath = outputFolder + "/\(label).out"
        let stderrPath = outputFolder + "/\(label).err"
        for path in [stdoutPath, stderrPath] {
            guard FileManager.default.createFile(atPath: path, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
        }
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: stdoutPath))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return Spawned(process: process, stdoutPath: stdoutPath, stderrPath: stderrPath)
    }

    /// Sends SIGKILL. Returns whether the process was still running.
    @discardableResult
    func killNow() -> Bool { kill(process.processIdentifier, SIGKILL) == 0 }

    /// Waits for the end; `killed` tells whether SIGKILL ended it.
    func wait() -> (result: CLIResult, killed: Bool) {
        process.waitUntilExit()
        let out = FileManager.default.contents(atPath: stdoutPath) ?? Data()
        let err = FileManager.default.contents(atPath: stderrPath) ?? Data()
        let killed = process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL
        return (CLIResult(status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
                          stderr: String(decoding: err, as: UTF8.self)), killed)
    }
}

/// A small Apple Health export.xml with `count` step records of one source, each a distinct value and minute.
func stepsExport(source: String, values: [Int], firstMinute: Int) -> String {
    let base = Date(timeIntervalSince1970: 1_711_929_600)  // 2024-04-01T00:00:00Z
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
    var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n"
    for (offset, value) in values.enumerated() {
        let start = base.addingTimeInterval(Double(firstMinute + offset) * 60)
        xml += " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"\(source)\" unit=\"count\" "
            + "startDate=\"\(formatter.string(from: start))\" endDate=\"\(formatter.string(from: start.addingTimeInterval(30)))\" value=\"\(value)\"/>\n"
    }
    return xml + "</HealthData>\n"
}

/// Every sample `hkctl export --format jsonl` prints: uuid, type, value (nil when a line is not a whole sample).
func exportedSamples(_ text: String) -> [(uuid: String, type: String, value: Double)?] {
    text.split(separator: "\n").map { line in
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
              let uuid = object["uuid"] as? String, let type = object["type"] as? String,
              let value = (object["value"] as? NSNumber)?.doubleValue else { return nil }
        return (uuid, type, value)
    }
}
