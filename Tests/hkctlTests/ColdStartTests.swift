#if os(Linux) && arch(x86_64)
import Foundation
import Glibc
import Testing
import TestKit

/// A copy of the hkctl the tests built, in a folder beside it (on the build's disk: `/dev/shm`, where the other tests'
/// scratch lives, cannot drop a file's pages), which a test can push out of the page cache.
struct ColdBinary {
    let folder: String
    let url: URL

    static func withCopy(_ body: (ColdBinary) throws -> Void) throws {
        let folder = CLIRunner.binaryURL.deletingLastPathComponent().path + "/cold-start-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let url = URL(fileURLWithPath: folder + "/hkctl")
        try FileManager.default.copyItem(at: CLIRunner.binaryURL, to: url)
        _ = try Data(contentsOf: url)  // in the page cache, also when the copy shares the original's blocks
        try body(ColdBinary(folder: folder, url: url))
    }

    /// Whether the folder beside the built hkctl can drop a file's pages from the page cache (tmpfs cannot).
    static let canPushOut: Bool = {
        guard let probe = try? ColdBinary.probeFile() else { return false }
        defer { try? FileManager.default.removeItem(atPath: probe.folder) }
        return (try? probe.pushOutOfThePageCache(required: false)) == true
    }()

    private static func probeFile() throws -> ColdBinary {
        let folder = CLIRunner.binaryURL.deletingLastPathComponent().path + "/cold-start-probe-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let url = URL(fileURLWithPath: folder + "/probe")
        try Data(repeating: 7, count: 1 << 20).write(to: url)
        return ColdBinary(folder: folder, url: url)
    }

    /// The environment under which the entry profiles the pages a command reads: the parent (this process) named.
    static let profiling = ["HKCTL_PAGE_PROFILE": String(ProcessInfo.processInfo.processIdentifier)]

    /// How many of the file's pages are in the page cache (mincore(2) of a read-only mapping, which reads nothing).
    func residentPages() throws -> Int {
        let descriptor = open(url.path, O_RDONLY)
        try #require(descriptor >= 0, "cannot open \(url.path)")
        defer { close(descriptor) }
        var status = stat()
        try #require(fstat(descriptor, &status) == 0)
        let size = Int(status.st_size), page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let mapping = try #require(mmap(nil, size, PROT_READ, MAP_SHARED, descriptor, 0))
        try #require(mapping != MAP_FAILED)
        defer { munmap(mapping, size) }
        var resident = [UInt8](repeating: 0, count: (size + page - 1) / page)
        try #require(mincore(mapping, size, &resident) == 0)
        return resident.reduce(0) { $0 + Int($1 & 1) }
    }

    /// Writes the copy out and drops its pages from the page cache, as after a reboot. With `required`, a file that
    /// stays in the page cache fails the test; else the answer says whether it left.
    @discardableResult
    func pushOutOfThePageCache(required: Bool = true) throws -> Bool {
        let descriptor = open(url.path, O_RDONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        try #require(fsync(descriptor) == 0)
        try #require(posix_fadvise(descriptor, 0, 0, Int32(POSIX_FADV_DONTNEED)) == 0)
        let left = try residentPages()
        if required { try #require(left < 16, "\(left) pages of \(url.path) stay in the page cache") }
        return left < 16
    }

    /// Whether the tests' hkctl starts at the entry (not in the dynamic debug build of sanitizer runs), read with nm.
    static let startsAtTheEntry: Bool = {
        let symbols = try? SystemPackages.shell("nm '\(CLIRunner.binaryURL.path)' 2>/dev/null | grep -c ' T hkctl_entry$'")
        return symbols?.out.trimmingCharacters(in: .whitespacesAndNewlines) == "1"
    }()

    /// Whether the kernel is 6.16 or later, whose faults in code read ahead to the end of their mapping whatever
    /// madvise says: the entry cuts the code into pieces there, and before only marks it MADV_RANDOM.
    static let codeReadsAheadToMappingEnd: Bool = {
        let release = (try? String(contentsOfFile: "/proc/sys/kernel/osrelease", encoding: .utf8)) ?? ""
        let numbers = release.split(whereSeparator: { !$0.isNumber }).prefix(2).compactMap { Int($0) }
        guard numbers.count == 2 else { return true }
        return numbers[0] > 6 || (numbers[0] == 6 && numbers[1] >= 16)
    }()

    /// How a running `hkctl import -` holds the copy: its mappings, and whether the code's is MADV_RANDOM (`rr` in
    /// smaps' VmFlags). It waits for its standard input, so this can be read while it runs.
    struct Start {
        var mappings: Int
        var codeRandom: Bool
        /// How the entry left a start it took to be cold, on this kernel: the code cut into more than `pieces`
        /// mappings from 6.16 on, marked MADV_RANDOM before.
        func cold(morePiecesThan pieces: Int = 64) -> Bool {
            ColdBinary.codeReadsAheadToMappingEnd ? mappings > pieces : codeRandom && mappings <= 8
        }
        /// How it left a start it took to be warm: the code whole, and before 6.16 with its usual read-ahead.
        var warm: Bool { mappings > 0 && mappings <= 8 && (ColdBinary.codeReadsAheadToMappingEnd || !codeRandom) }
    }

    func startWhileRunning(environment: [String: String] = [:], store: String) throws -> Start {
        let process = Process()
        process.executableURL = url
        process.arguments = ["import", "-"]
        process.environment = ["PATH": "/usr/bin:/bin", "HKCTL_STORE": store, "TZ": "UTC", "HOME": folder]
            .merging(environment) { $1 }
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }
        // Its own mappings are set before main, so once the process has read its arguments they are final; wait
        // until the Swift program runs (it maps more memory than the kernel's few segments) or 10 s pass.
        for _ in 0..<1000 {
            let maps = Self.wholeFile("/proc/\(process.processIdentifier)/maps")
            let count = maps.split(separator: "\n").filter { $0.hasSuffix(url.path) }.count
            if maps.contains("[heap]") && count > 0 {
                // smaps: each mapping's line, then its fields; VmFlags is the last of them.
                var inCode = false, random = false
                for line in Self.wholeFile("/proc/\(process.processIdentifier)/smaps").split(separator: "\n") {
                    if line.hasSuffix(url.path) { inCode = line.split(separator: " ").dropFirst().first?.hasPrefix("r-x") == true }
                    if inCode && line.hasPrefix("VmFlags:") {
                        random = random || line.split(separator: " ").contains("rr")
                        inCode = false
                    }
                }
                return Start(mappings: count, codeRandom: random)
            }
            usleep(10_000)
        }
        return Start(mappings: 0, codeRandom: false)
    }

    /// A file of /proc read to its end (Foundation's readers take a file of size 0 to be empty or one buffer long).
    private static func wholeFile(_ path: String) -> String {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return "" }
        defer { close(descriptor) }
        var bytes: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// The process entry on Linux x86-64 (Sources/CStartup/startup.c): a command started with its binary out of the page
/// cache cuts the code's mapping into 64 KiB pieces and asks for the pages it will run; one started with the binary
/// in the page cache leaves it whole; either way the command does the same.
@Suite(.enabled(if: ColdBinary.startsAtTheEntry,
                "the tests' hkctl does not start at hkctl_entry (a dynamic debug build, or nm is missing): the cold-start tests are skipped"),
       .enabled(if: ColdBinary.canPushOut,
                "the build folder cannot drop a file's pages from the page cache (tmpfs?), so a cold start cannot be made: the cold-start tests are skipped"))
struct ColdStartTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: coldStartTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    func aColdStartCutsTheCodeIntoPiecesAndAWarmOneDoesNot() throws {
        try ColdBinary.withCopy { binary in
            let store = binary.folder + "/store"
            let warm = try binary.startWhileRunning(store: store)
            #expect(warm.warm, "a warm start: \(warm)")
            try binary.pushOutOfThePageCache()
            let cold = try binary.startWhileRunning(store: store)
            #expect(cold.cold(), "a cold start: \(cold)")
            // The pages the cold start asked for are in the page cache once read (the reads it started may still
            // run as it exits): the same command then starts warm.
            var again = cold
            for _ in 0..<40 {
                usleep(250_000)
                again = try binary.startWhileRunning(store: store)
                if again.warm { break }
            }
            #expect(again.warm, "the start after a cold one: \(again)")
            // Under HKCTL_PAGE_PROFILE=<the parent's pid> (bench/order-functions --pages) the pieces are single
            // pages, and the binary is taken to be out of the page cache without looking.
            try binary.pushOutOfThePageCache()
            let profiled = try binary.startWhileRunning(environment: ColdBinary.profiling, store: store)
            #expect(profiled.cold(morePiecesThan: max(cold.mappings, 64) * 8), "a profiled cold start: \(profiled)")
            let profiledWarm = try binary.startWhileRunning(environment: ColdBinary.profiling, store: store)
            #expect(profiledWarm.cold(morePiecesThan: max(cold.mappings, 64) * 8), "a profiled warm start: \(profiledWarm)")
            // Set to another process's id (left in a shell), it is not heeded: no single pages (before 6.16 a
            // profiled start and a plain cold one look alike from outside).
            let leftOver = try binary.startWhileRunning(environment: ["HKCTL_PAGE_PROFILE": "1"], store: store)
            #expect(!ColdBinary.codeReadsAheadToMappingEnd || leftOver.mappings * 2 < profiled.mappings,
                    "with HKCTL_PAGE_PROFILE=1: \(leftOver), profiled: \(profiled)")
        }
    }

    func aColdStartRunsTheSameCommands() throws {
        try ColdBinary.withCopy { binary in
            try CLIRunner.withTemporaryStore { cli in
                let commands: [[String]] = [
                    ["--version"], ["add", "water", "500mL", "--at", "08:00", "-q"], ["list", "water", "--format", "csv"],
                    ["stats", "water", "--week", "--by", "day", "--format", "csv"], ["types", "--format", "csv"],
                    ["add", "steps", "-5"],
                ]
                for arguments in commands {
                    let warm = try cli.run(arguments)
                    try binary.pushOutOfThePageCache()
                    let cold = try cli.run(arguments, binary: binary.url)
                    try binary.pushOutOfThePageCache()
                    let profiled = try cli.run(arguments, environment: ColdBinary.profiling, binary: binary.url)
                    for (name, run) in [("cold", cold), ("profiled", profiled)] {
                        let adds = arguments.first == "add" && warm.status == 0
                        #expect(run.status == warm.status, "hkctl \(arguments.joined(separator: " ")) (\(name)): \(run.stderr)")
                        #expect(adds || run.stdout == warm.stdout, "hkctl \(arguments.joined(separator: " ")) (\(name))")
                        #expect(run.stderr == warm.stderr, "hkctl \(arguments.joined(separator: " ")) (\(name))")
                    }
                }
                // The two adds of the cold copies are in the store too.
                let listed = try cli.run(["list", "water", "--format", "csv"])
                #expect(listed.stdout.split(separator: "\n").count == 4, "\(listed.stdout)")
            }
        }
    }
}

extension ColdStartTests {
    /// The object of Sources/CStartup the tests' hkctl was linked from.
    static let entryObject = CLIRunner.binaryURL.deletingLastPathComponent().path + "/CStartup.build/startup.c.o"

    /// The entry runs before the C library is set up: its object may call nothing but its own functions and `_start`
    /// (a memset or memcpy a compiler puts in would jump through an address not yet filled in; an unoptimised build
    /// did so once). Read from the relocations of the calls and jumps in the object the tests' hkctl was linked from.
    func theEntryCallsNothingButItself() throws {
        let object = Self.entryObject
        let listing = try SystemPackages.shell("command -v objdump >/dev/null && objdump -dr '\(object)'")
        try #require(listing.status == 0, "objdump -dr \(object) failed (binutils missing?): \(listing.err)")
        var targets = Set<String>(), previous = ""
        for line in listing.out.split(separator: "\n").map(String.init) {
            if (previous.contains("call") || previous.contains("jmp")), let found = line.firstMatch(of: /R_X86_64_\w+\s+(\S+?)(?:[-+]0x[0-9a-f]+)?$/) {
                targets.insert(String(found.output.1))
            }
            previous = line
        }
        // Its own sections (.text, .text.hkctl_after_cut) are its own code.
        expectEqual(Set(targets.filter { !$0.hasPrefix(".text") }), ["_start", "hkctl_prepare_image"],
                    "calls and jumps out of the entry's own code")
    }

    /// The code that runs before the code's mapping is cut up (the object's .text) fits in the file's first 16 KiB,
    /// which the kernel reads with the header, with room for the C library's start files before it; the long list of
    /// pages to ask for has a section of its own. A fault beyond them in a cold start reads 8 MiB (startup.c).
    func theEntrysFirstCodeFitsTheFirstPages() throws {
        let object = Self.entryObject
        let headers = try SystemPackages.shell("command -v objdump >/dev/null && objdump -h -t '\(object)'")
        try #require(headers.status == 0, "objdump -h -t \(object) failed (binutils missing?): \(headers.err)")
        let lines = headers.out.split(separator: "\n").map { $0.split(whereSeparator: { $0 == " " || $0 == "\t" }) }
        let text = try #require(lines.first { $0.count > 2 && $0[1] == ".text" }, "no .text in \(object)")
        let size = try #require(Int(text[2], radix: 16))
        #expect(size > 0 && size <= 12 * 1024, ".text of the entry's object is \(size) bytes")
        for function in ["read_listed_pages", "will_need"] {
            #expect(lines.contains { $0.last.map(String.init) == function && $0.contains(".text.hkctl_after_cut") },
                    "\(function) is not in .text.hkctl_after_cut")
        }
    }
}

/// The checks ``ColdStartTests/checks(_:)`` runs.
private let coldStartTestsChecks: [Check<ColdStartTests>] = [
    Check("aColdStartCutsTheCodeIntoPiecesAndAWarmOneDoesNot",
          ColdStartTests.aColdStartCutsTheCodeIntoPiecesAndAWarmOneDoesNot),
    Check("aColdStartRunsTheSameCommands", ColdStartTests.aColdStartRunsTheSameCommands),
    Check("theEntryCallsNothingButItself", ColdStartTests.theEntryCallsNothingButItself),
    Check("theEntrysFirstCodeFitsTheFirstPages", ColdStartTests.theEntrysFirstCodeFitsTheFirstPages),
]
#endif
