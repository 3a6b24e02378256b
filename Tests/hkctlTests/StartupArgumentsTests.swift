#if os(Linux) && arch(x86_64)
import Foundation
import Testing
import TestKit

/// The links that start at hkctl_entry hand the Swift runtime argc and argv from a C initialiser, and spare it the
/// reading of /proc/self/maps it did to find them (Sources/CStartup/argv.c): every argument reaches the command as
/// given, and the start opens no /proc/self/maps.
@Suite(.enabled(if: ColdBinary.startsAtTheEntry,
                "the tests' hkctl does not start at hkctl_entry (a dynamic debug build, or nm is missing): the start-up argument tests are skipped"))
struct StartupArgumentsTests {
    @Test func everyArgumentReachesTheCommandAsGiven() throws {
        try CLIRunner.withTemporaryStore { cli in
            // Spaces, letters beyond ASCII and an emoji, echoed back whole in the error.
            let odd = try cli.run(["list", "wäter  x😀"])
            expectEqual(odd.status, 64)
            #expect(odd.stderr.contains("Unknown type 'wäter  x😀'"), "\(odd.stderr)")
            // An empty argument is an argument.
            let empty = try cli.run([""])
            #expect(empty.stderr.contains("Unknown subcommand ''"), "\(empty.stderr)")
            // Each of many arguments, in order: two adds at the times given, listed back.
            let added = try cli.run(["add", "water", "300mL", "--at", "07:15", "--format", "csv"])
            expectEqual(added.status, 0, "\(added.stderr)")
            let again = try cli.run(["add", "water", "450mL", "--at", "09:40", "--format", "csv"])
            expectEqual(again.status, 0, "\(again.stderr)")
            let listed = try cli.run(["list", "water", "--format", "csv", "--limit", "5"])
            let rows = listed.stdout.split(separator: "\n").dropFirst()
            expectEqual(rows.count, 2, "\(listed.stdout)")
            #expect(rows.contains { $0.contains("T07:15:00") && $0.contains(",300,mL,") }, "\(listed.stdout)")
            #expect(rows.contains { $0.contains("T09:40:00") && $0.contains(",450,mL,") }, "\(listed.stdout)")
        }
    }

    @Test(.enabled(if: (try? SystemPackages.shell("command -v strace"))?.status == 0,
                   "strace is missing: what the start opens cannot be seen; skipped"))
    func theStartOpensNoProcSelfMaps() throws {
        let trace = NSTemporaryDirectory() + "/hkctl-start-" + UUID().uuidString + ".trace"
        defer { try? FileManager.default.removeItem(atPath: trace) }
        let run = try SystemPackages.shell("strace -f -e trace=open,openat -o '\(trace)' '\(CLIRunner.binaryURL.path)' --version")
        expectEqual(run.status, 0, "\(run.err)")
        let opened = try String(contentsOfFile: trace, encoding: .utf8)
        #expect(opened.contains("open"), "the trace holds the start's opens: \(opened)")
        #expect(!opened.contains("/proc/self/maps"), "\(opened)")
        #expect(run.out.hasPrefix("hkctl "), "\(run.out)")
    }
}
#endif
