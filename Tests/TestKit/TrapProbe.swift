import Foundation

/// Checks that code stops the program, by running it in a child process of this test binary, on Linux.
///
/// Swift Testing's exit tests (`#expect(processExitsWith:)`) do the same, but once one has run, a thread of Swift
/// Testing waits on every child process of the test binary and spins while any of them has exited and is not yet
/// reaped: with the end-to-end tests starting `hkctl` thousands of times on two busy cores, it took 27 CPU-s out of
/// 40 s of the run's end (BENCHMARKS.md, "Session 26"). A probe is a test enabled only in that child
/// (`.enabled(if: TrapProbe.requested == "name")`), and the check runs the binary with a filter that selects it.
public enum TrapProbe {
    /// The probe this process was started to run, if any.
    public static var requested: String? { ProcessInfo.processInfo.environment["HKCTL_TRAP_PROBE"] }

    /// Whether the probe `name`, the one test `filter` selects, stops the test binary it runs in with a signal.
    public static func stopsTheProgram(_ name: String, filter: String) throws -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = ["--testing-library", "swift-testing", "--filter", filter]
        var environment = ProcessInfo.processInfo.environment
        environment["HKCTL_TRAP_PROBE"] = name
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationReason == .uncaughtSignal
    }
}
