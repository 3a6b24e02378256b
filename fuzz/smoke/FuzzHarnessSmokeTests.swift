import Foundation
import Testing

/// The suite's smoke of the five fuzz harnesses in `fuzz/targets`, compiled here as an ordinary test target: each
/// harness runs over its seeds (`fuzz/corpus/<target>`, and for `xml` the first 8 KiB of each Apple Health fixture
/// in `../shared` when present) and over inputs mutated from them with a seeded generator. A harness traps on a
/// crash or a broken round trip, which ends the test run.
///
/// This is a smoke, not the fuzzing: `fuzz/run` runs the same harnesses under libFuzzer, guided by coverage, with
/// AddressSanitizer, on demand. The suite used to run that for 5 s a target, whose compile of all of HealthCore with
/// the fuzzer's instrumentation cost a sixth of the suite's CPU time; the harnesses are now compiled with the suite,
/// so a change that breaks one still fails the build. `HKCTL_FUZZ_SEED` repeats a run (its seed is printed first).
struct FuzzHarnessSmokeTests {
    /// The mutated inputs each harness gets beyond its seeds.
    static let mutationsPerTarget = 10_000

    static let packageFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static let harnesses: [String: @Sendable (UnsafeRawPointer, Int) -> CInt] = [
        "xml": fuzzXML, "storeline": fuzzStoreLine, "unit": fuzzUnit, "time": fuzzTime, "http": fuzzHTTP,
    ]

    /// The seeds of `target`: its corpus files, and for `xml` the fixtures' first 8 KiB.
    static func seeds(of target: String) throws -> [[UInt8]] {
        let corpus = packageFolder.appendingPathComponent("fuzz/corpus/\(target)")
        var seeds = try FileManager.default.contentsOfDirectory(atPath: corpus.path).sorted().map {
            Array(try Data(contentsOf: corpus.appendingPathComponent($0)))
        }
        let fixtures = packageFolder.deletingLastPathComponent().appendingPathComponent("shared/fixtures/apple-health")
        if target == "xml", let names = try? FileManager.default.contentsOfDirectory(atPath: fixtures.path) {
            for name in names.sorted() where name.hasSuffix(".xml") {
                let handle = try FileHandle(forReadingFrom: fixtures.appendingPathComponent(name))
                defer { try? handle.close() }
                seeds.append(Array(try handle.read(upToCount: 8192) ?? Data()))
            }
        }
        return seeds
    }

    @Test(arguments: ["xml", "storeline", "unit", "time", "http"])
    func aHarnessRunsItsSeedsAndTheirMutationsWithoutATrap(_ target: String) throws {
        let harness = try #require(Self.harnesses[target])
        let seeds = try Self.seeds(of: target)
        try #require(!seeds.isEmpty, "fuzz/corpus/\(target) has no seeds")
        let seed = ProcessInfo.processInfo.environment["HKCTL_FUZZ_SEED"].flatMap(UInt64.init)
            ?? UInt64.random(in: 1...UInt64.max)
        // On standard error, unbuffered: a harness that traps ends the process before a buffered line is written.
        FileHandle.standardError.write(Data("fuzz smoke: \(target) with seed \(seed) (HKCTL_FUZZ_SEED=\(seed) repeats it)\n".utf8))
        var mutator = SmokeMutator(seed: seed)
        var runs = 0
        for input in seeds {
            _ = input.withUnsafeBytes { harness($0.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!, $0.count) }
            runs += 1
        }
        var pool = seeds
        for _ in 0..<Self.mutationsPerTarget {
            let input = mutator.mutate(pool[mutator.below(pool.count)], splicingWith: pool[mutator.below(pool.count)])
            _ = input.withUnsafeBytes { harness($0.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!, $0.count) }
            // Some mutants join the pool, so mutations stack as a fuzzer's do.
            if mutator.below(8) == 0 { pool.append(input) }
            runs += 1
        }
        #expect(runs == seeds.count + Self.mutationsPerTarget)
    }

    @Test func theMutatorIsRepeatableAndChangesItsInput() {
        let input = Array("<Record type=\"HKQuantityTypeIdentifierStepCount\" value=\"12\"/>".utf8)
        var first = SmokeMutator(seed: 42), second = SmokeMutator(seed: 42)
        let outputs = (0..<200).map { _ in first.mutate(input, splicingWith: input) }
        #expect(outputs == (0..<200).map { _ in second.mutate(input, splicingWith: input) }, "the same seed, the same inputs")
        #expect(outputs.filter { $0 != input }.count > 150, "nearly every mutant differs from its seed")
        #expect(outputs.allSatisfy { $0.count <= SmokeMutator.maximumLength })
        #expect(Set(outputs.map(\.count)).count > 10, "lengths vary")
    }
}
