import Foundation

/// Checks that code stops the program, by running it in a child process of this test binary, on Linux.
///
/// Swift Testing's exit tests (`#expect(processExitsWith:)`) do the same, but once one has run, a thread of Swift
/// Testing waits on every child process of the test binary and spins while any of them has exited and is not yet
/// reaped: with the end-to-end tests starting `hkctl` thousands of times on two busy cores, it took 27 CPU-s out of
/// 40 s of the run's end (BENCHMARKS.md, "Session 26"). A probe is a test enabled only in that child
/// (`.enabled(if: TrapProbe.requested == "name")`) that calls ``reached()`` and then runs the line that must trap;
/// the check runs the binary with a filter that selects it.
public enum TrapProbe {
    /// The probe this process was started to run, if any.
    public static var requested: String? { ProcessInfo.processInfo.environment["HKCTL_TRAP_PROBE"] }

    /// What the child process did.
    public struct Outcome: CustomStringConvertible, Sendable {
        /// The signal that stopped it, if one did.
        public let signal: Int32?
        /// Its exit status, if it exited.
        public let status: Int32?
        /// What it wrote to standard error.
        public let standardError: String

        /// Whether the probe was reached and the program then stopped by a trap (SIGILL or SIGTRAP, as a failed
        /// precondition stops it), not by anything else.
        public var trapped: Bool {
            guard let signal, signal == SIGILL || signal == SIGTRAP else { return false }
            return standardError.contains(TrapProbe.marker)
        }

        public var description: String {
            let how = signal.map { "stopped by signal \($0)" } ?? "exited with status \(status ?? -1)"
            return "the probe's process \(how); its standard error ends: \(standardError.suffix(1500))"
        }
    }

    static let marker = "hkctl trap probe reached"

    /// Marks, on standard error, that the probe runs: call it just before the line that must trap.
    public static func reached() {
        FileHandle.standardError.write(Data((marker + "\n").utf8))
    }

    /// Runs the probe `name`, the one test `filter` selects, in a child process of this test binary.
    public static func run(_ name: String, filter: String) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = ["--testing-library", "swift-testing", "--filter", filter]
        var environment = ProcessInfo.processInfo.environment
        environment["HKCTL_TRAP_PROBE"] = name
        // No backtrace of the 100 MB debug binary after the trap, as Swift Testing's exit tests also arrange.
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let written = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let bySignal = process.terminationReason == .uncaughtSignal
        return Outcome(signal: bySignal ? process.terminationStatus : nil, status: bySignal ? nil : process.terminationStatus,
                       standardError: String(decoding: written, as: UTF8.self))
    }
}
