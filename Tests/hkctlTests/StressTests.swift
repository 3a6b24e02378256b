import Foundation
import Testing
import TestKit

/// 200 `hkctl add` processes across four types at once, an import and readers running beside them.
struct StressTests {
    static let types = ["water": ("mL", "HKQuantityTypeIdentifierDietaryWater"), "steps": ("", "HKQuantityTypeIdentifierStepCount"),
                        "weight": ("kg", "HKQuantityTypeIdentifierBodyMass"), "heart-rate": ("count/min", "HKQuantityTypeIdentifierHeartRate")]
    static let importSize = 500

    @Test func twoHundredWritersAnImportAndReadersAtOnce() throws {
        try CLIRunner.withTemporaryStore { cli in
            let scratch = cli.storePath + "-output"
            try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
            try expectEqual(cli.run(["add", "water", "1mL", "--at", "2024-05-01T00:00"]).status, 0)
            let importPath = scratch + "/export.xml"
            try Data(stepsExport(source: "phone", values: (0..<Self.importSize).map { 100_000 + $0 }, firstMinute: 0).utf8)
                .write(to: URL(fileURLWithPath: importPath))
            // Plenty of time: 200 writers queue for one lock on a shared CI machine.
            let slow = ["HKCTL_LOCK_TIMEOUT": "300"]
            let names = Self.types.keys.sorted()
            var expected: [String: Set<Int>] = [:]
            var writers: [Spawned] = []
            var readers: [Spawned] = []
            let importer = try Spawned.start(["import", importPath], cli: cli, outputFolder: scratch, label: "import", environment: slow)
            for index in 0..<200 {
                let name = names[index % names.count]
                let value = 60 + index  // distinct, and plausible for every type
                expected[name, default: []].insert(value)
                let minute = index
                let arguments = ["add", name, "\(value)\(Self.types[name]!.0)", "--at",
                                 String(format: "2024-05-20T%02d:%02d", minute / 60, minute % 60)]
                writers.append(try Spawned.start(arguments, cli: cli, outputFolder: scratch, label: "add-\(index)", environment: slow))
                if index % 40 == 0 {
                    readers.append(try Spawned.start(["export", "--format", "jsonl"], cli: cli, outputFolder: scratch,
                                                     label: "export-\(index)", environment: slow))
                    readers.append(try Spawned.start(["list", names[index / 40 % names.count], "--format", "json"], cli: cli,
                                                     outputFolder: scratch, label: "list-\(index)", environment: slow))
                }
            }
            for (index, writer) in writers.enumerated() {
                let result = writer.wait().result
                expectEqual(result.status, 0, "add #\(index) exited \(result.status): \(result.stderr)")
            }
            let imported = importer.wait().result
            expectEqual(imported.status, 0, "import: \(imported.stderr)")
            // Every reader saw whole samples only, each one that was written, and each import all or nothing.
            for reader in readers {
                let result = reader.wait().result
                expectEqual(result.status, 0, "reader: \(result.stderr)")
                if reader.stdoutPath.contains("/export-") {
                    let samples = exportedSamples(result.stdout)
                    #expect(samples.allSatisfy { $0 != nil }, "a reader saw a partial sample")
                    let importedSeen = samples.compactMap { $0 }.filter { $0.value >= 100_000 }.count
                    #expect(importedSeen == 0 || importedSeen == Self.importSize, "a reader saw \(importedSeen) imported samples")
                } else {
                    let parsed = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]]
                    #expect(parsed != nil, "list printed something that is not a JSON array: \(result.stdout.prefix(200))")
                    for sample in parsed ?? [] {
                        #expect(sample["uuid"] is String && sample["value"] is NSNumber, "a partial sample: \(sample)")
                    }
                }
            }
            let final = try cli.run(["export", "--format", "jsonl"])
            expectEqual(final.status, 0)
            let samples = exportedSamples(final.stdout)
            #expect(samples.allSatisfy { $0 != nil })
            for name in names {
                let identifier = Self.types[name]!.1
                let values = samples.compactMap { $0 }.filter { $0.type == identifier && $0.value < 100_000 }.map { Int($0.value.rounded()) }
                let wanted = expected[name]!.union(name == "water" ? [1] : [])
                expectEqual(values.count, wanted.count, "\(name): \(values.count) samples, not \(wanted.count)")
                expectEqual(Set(values), wanted, "\(name): the values differ")
            }
            expectEqual(samples.compactMap { $0 }.filter { $0.value >= 100_000 }.count, Self.importSize)
            expectEqual(samples.count, 201 + Self.importSize)
            let doctor = try cli.run(["doctor"])
            #expect(doctor.status == 0 && doctor.stdout.contains("0 errors"), "\(doctor.stdout)")
        }
    }
}
