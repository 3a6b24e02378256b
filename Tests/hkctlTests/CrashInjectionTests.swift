#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
import TestKit
import TextSupport

/// What the test knows about the store: the writes attempted, those acknowledged (exit 0), and what must hold.
private struct Model {
    /// Water amounts (mL, all distinct) whose add was attempted, and those that must be visible.
    var attemptedWater: Set<Int> = []
    var committedWater: Set<Int> = []
    /// Water amounts whose delete was attempted (killed or not) and acknowledged.
    var deleteAttempted: Set<Int> = []
    var deleted: Set<Int> = []
    /// Imports: records per import, and the imports acknowledged.
    var importSizes: [Int: Int] = [:]
    var importsAcknowledged: Set<Int> = []
}

/// What a run has done so far, over all its stores.
private struct Tally {
    var kills = 0, completed = 0, iteration = 0
    var killsByCommand: [String: Int] = [:]
    /// For each command, the span (µs) its kill moment is drawn from.
    private var windows: [String: Int] = [:]

    /// At most 30 ms (an import 60 ms) after the start: about as long as the debug build's command takes here.
    static func longestWindow(_ kind: String) -> Int { kind == "import" ? 60_000 : 30_000 }

    func window(_ kind: String) -> Int { windows[kind] ?? Self.longestWindow(kind) }

    /// Fits the span to how long the command takes on this machine and load, so that most runs are killed while they
    /// work and about a quarter finish (their writes are acknowledged, and later kills must keep them): each finished run
    /// narrows its command's span by 9 %, each killed one widens it by 3 %, up to the longest.
    mutating func learn(_ kind: String, killed: Bool) {
        let current = Double(window(kind))
        windows[kind] = min(Self.longestWindow(kind), max(1_000, Int(current * (killed ? 1.03 : 0.91))))
    }
}

/// Starts `hkctl add`, `import`, `delete` and `compact`, kills each with SIGKILL at a random moment, and after every
/// kill checks that the store opens, nothing acknowledged is missing, no partial sample or batch is visible, and
/// statistics equal the sum of the samples that must be there.
struct CrashInjectionTests {
    static let importSize = 40
    /// Kills made on one store before the run goes on with a fresh one. The check after each kill reads the whole
    /// store (an export and two `stats`), so on one store the run's cost grows with the square of its length (measured
    /// with the fixed 30 ms span of before: 95 CPU-s for 300 kills on one store, 81 on four).
    static let killsPerStore = 75

    @Test func killNineAtRandomMomentsLosesNothingAcknowledged() throws {
        let environment = ProcessInfo.processInfo.environment
        let target = environment["HKCTL_CRASH_KILLS"].flatMap(Int.init) ?? 300
        let seed = environment["HKCTL_CRASH_SEED"].flatMap(UInt64.init) ?? UInt64(Date().timeIntervalSince1970 * 1000)
        var random = IndependentTestKit.SeededGenerator(seed: seed)
        var tally = Tally()
        var stores = 0
        while tally.kills < target {
            stores += 1
            let kills = min(Self.killsPerStore, target - tally.kills)
            guard try Self.crashOneStore(untilKills: tally.kills + kills, tally: &tally, random: &random, seed: seed) else { return }
        }
        let counts = tally.killsByCommand.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        print("crash injection: \(tally.kills) kills (\(counts)) on \(stores) stores, \(tally.completed) runs completed "
              + "before the kill, seed \(seed)")
    }

    /// Kills commands on a new store until the run has made `untilKills` kills, checking the store after each, and
    /// `doctor` at the end. Returns whether every check held.
    private static func crashOneStore(untilKills target: Int, tally: inout Tally, random: inout IndependentTestKit.SeededGenerator,
                                      seed: UInt64) throws -> Bool {
        try CLIRunner.withTemporaryStore { cli in
            let scratch = cli.storePath + "-output"
            try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
            var model = Model()
            while tally.kills < target {
                tally.iteration += 1
                let iteration = tally.iteration
                let roll = Int.random(in: 0..<100, using: &random)
                var arguments: [String]
                var kind: String
                var waterAmount: Int?
                var importID: Int?
                var deleteAmount: Int?
                if roll < 50 || model.committedWater.isEmpty {
                    let amount = iteration
                    waterAmount = amount
                    model.attemptedWater.insert(amount)
                    let minute = amount % (60 * 24 * 28)
                    arguments = ["add", "water", "\(amount)mL", "--at", String(format: "2024-05-%02d %02d:%02d", 1 + minute / 1440, minute / 60 % 24, minute % 60)]
                    kind = "add"
                } else if roll < 70 {
                    let id = iteration
                    importID = id
                    model.importSizes[id] = Self.importSize
                    let path = scratch + "/import-\(id).xml"
                    // Values tell the import apart (value / importSize = id) and stay under the plausible
                    // maximum for steps (1,000,000) for the first 25,000 iterations, however fast they run.
                    let values = (0..<Self.importSize).map { id * Self.importSize + $0 }
                    try Data(stepsExport(source: "import-\(id)", values: values, firstMinute: id * 100).utf8)
                        .write(to: URL(fileURLWithPath: path))
                    arguments = ["import", path]
                    kind = "import"
                } else if roll < 85 {
                    let candidates = model.committedWater.subtracting(model.deleteAttempted).sorted()
                    guard let amount = candidates.randomElement(using: &random) else { continue }
                    deleteAmount = amount
                    model.deleteAttempted.insert(amount)
                    arguments = ["delete", "water", "--from", "2024-05-01", "--to", "2024-06-01", "--yes"]
                    // Delete exactly one sample: the one with this amount, by uuid.
                    let listed = try Self.visible(cli)
                    guard let uuid = listed.first(where: { $0.type.hasSuffix("DietaryWater") && Int($0.value) == amount })?.uuid else {
                        Issue.record("committed water \(amount) mL is not visible (seed \(seed))")
                        return false
                    }
                    arguments = ["delete", uuid, "--yes"]
                    kind = "delete"
                } else {
                    arguments = ["compact", "--retention", "0"]
                    kind = "compact"
                }
                let spawned = try Spawned.start(arguments, cli: cli, outputFolder: scratch, label: "run")
                usleep(useconds_t(Int.random(in: 0..<tally.window(kind), using: &random)))
                spawned.killNow()
                let (result, killed) = spawned.wait()
                tally.learn(kind, killed: killed)
                if killed {
                    tally.kills += 1
                    tally.killsByCommand[kind, default: 0] += 1
                } else {
                    tally.completed += 1
                    guard result.status == 0 else {
                        Issue.record("\(arguments) exited \(result.status): \(result.stderr) (seed \(seed))")
                        return false
                    }
                    if let waterAmount { model.committedWater.insert(waterAmount) }
                    if let importID { model.importsAcknowledged.insert(importID) }
                    if let deleteAmount { model.deleted.insert(deleteAmount) }
                }
                guard try Self.check(cli, model: &model, seed: seed, after: "\(kind) #\(iteration) (\(killed ? "killed" : "completed"))") else { return false }
            }
            let doctor = try cli.run(["doctor"])
            expectEqual(doctor.status, 0, "doctor after the crashes: \(doctor.stdout)\(doctor.stderr)")
            return doctor.status == 0
        }
    }

    private static func visible(_ cli: CLIRunner) throws -> [(uuid: String, type: String, value: Double)] {
        let exported = try cli.run(["export", "--format", "jsonl"])
        guard exported.status == 0 else { throw CocoaError(.fileReadCorruptFile, userInfo: ["stderr": exported.stderr]) }
        let samples = exportedSamples(exported.stdout)
        guard samples.allSatisfy({ $0 != nil }) else { throw CocoaError(.fileReadCorruptFile) }
        return samples.compactMap { $0 }
    }

    /// Checks the store against the model, and learns from it which killed writes took effect.
    private static func check(_ cli: CLIRunner, model: inout Model, seed: UInt64, after: String) throws -> Bool {
        let exported = try cli.run(["export", "--format", "jsonl"])
        guard exported.status == 0 else {
            Issue.record("after \(after): the store does not open: \(exported.stderr) (seed \(seed))")
            return false
        }
        let parsed = exportedSamples(exported.stdout)
        guard parsed.allSatisfy({ $0 != nil }) else {
            Issue.record("after \(after): a partial sample is visible (seed \(seed))")
            return false
        }
        let samples = parsed.compactMap { $0 }
        var failures: [String] = []
        let water = samples.filter { $0.type == "HKQuantityTypeIdentifierDietaryWater" }.map { Int($0.value) }
        let waterSet = Set(water)
        if water.count != waterSet.count { failures.append("a water sample is visible twice") }
        if let stray = waterSet.subtracting(model.attemptedWater).first { failures.append("water \(stray) mL was never written") }
        if let back = waterSet.intersection(model.deleted).first { failures.append("deleted water \(back) mL is visible") }
        for missing in model.committedWater.subtracting(waterSet) {
            // Only a delete (killed after its tombstone was written) may hide a committed sample.
            if model.deleteAttempted.contains(missing) { model.deleted.insert(missing) } else {
                failures.append("acknowledged water \(missing) mL is missing")
            }
        }
        // Killed adds that took effect are committed from now on.
        model.committedWater.formUnion(waterSet)
        var stepsByImport: [Int: Int] = [:]
        for sample in samples where sample.type == "HKQuantityTypeIdentifierStepCount" {
            stepsByImport[Int(sample.value) / Self.importSize, default: 0] += 1
        }
        for (id, size) in model.importSizes {
            let seen = stepsByImport[id] ?? 0
            if seen != 0 && seen != size { failures.append("import \(id) is half visible: \(seen) of \(size) samples") }
            if seen == 0 && model.importsAcknowledged.contains(id) { failures.append("acknowledged import \(id) is missing") }
            if seen == size { model.importsAcknowledged.insert(id) }
        }
        // Statistics replay: the sums hkctl computes equal the sums of the samples that are there. Imports start
        // `id × 100` minutes after April 2024, so a long (fast) run reaches well into 2025: the range covers it.
        for (type, expected) in [("water", water.reduce(0, +)),
                                  ("steps", samples.filter { $0.type == "HKQuantityTypeIdentifierStepCount" }.map { Int($0.value) }.reduce(0, +))] {
            let stats = try cli.run(["stats", type, "--from", "2024-01-01", "--to", "2030-12-31", "--format", "json"])
            let object = try? JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any]
            let sum = (object?["sum"] as? NSNumber)?.intValue ?? 0
            if stats.status != 0 || sum != expected { failures.append("stats \(type) says \(sum), the samples add up to \(expected): \(stats.stderr)") }
        }
        for failure in failures { Issue.record("after \(after): \(failure) (seed \(seed))") }
        return failures.isEmpty
    }
}
