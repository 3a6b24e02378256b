import Foundation
import Testing
import TestKit

/// Issue 29, items 2 and 4: metadata comes back as it went in, in type and in identity.
struct MetadataRoundTripTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: metadataRoundTripTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    /// Every sample of `export --format jsonl` as `type start` → its user metadata (`@` keys left out), each value
    /// spelled with its JSON type: `n:42` for a number, `s:42` for a string.
    private func typedMetadata(_ cli: CLIRunner) throws -> [String: [String: String]] {
        let export = try cli.run(["export", "--format", "jsonl"])
        expectEqual(export.status, 0, "\(export.stderr)")
        var result: [String: [String: String]] = [:]
        for line in export.stdout.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let key = "\(object["type"] ?? "") \(object["start"] ?? "")"
            var metadata: [String: String] = [:]
            for (name, value) in object["metadata"] as? [String: Any] ?? [:] where !name.hasPrefix("@") {
                if let text = value as? String { metadata[name] = "s:" + text } else if let number = value as? NSNumber {
                    metadata[name] = "n:\(number.doubleValue)"
                }
            }
            result[key] = metadata
        }
        return result
    }

    /// One water sample a minute from 08:00 per metadata entry, as hkctl jsonl lines (numbers the command line
    /// would keep as text included: `1e20` typed is text, but a library or a backup can store the number).
    private static let entries: [(key: String, json: String)] = [
        ("count", "42"), ("half", "0.5"), ("big", "1e20"), ("tenth", "1.1"), ("negative", "-3"), ("tiny", "5e-324"),
        ("largest", "1.7976931348623157e308"), ("long", "123456789012345680000"), ("third", "0.3333333333333333"),
        ("zip", "\"01234\""), ("code", "\"007\""), ("version", "\"1.10\""), ("answer", "\"42\""), ("exponent", "\"1e20\""),
        ("date", "\"2024-03-10 01:59:00 -0800\""), ("rate", "\"120 count/min\""), ("empty", "\"\""), ("word", "\"after the run\""),
        ("HKWasUserEntered", "1"), ("@note", "7"),
    ]

    private static var jsonLines: String {
        entries.enumerated().map { index, entry in
            let time = String(format: "2024-05-01T08:%02d:00+00:00", index)
            return "{\"uuid\":\"00000000-0000-4000-8000-\(String(format: "%012d", index))\",\"type\":\"HKQuantityTypeIdentifierDietaryWater\","
                + "\"start\":\"\(time)\",\"end\":\"\(time)\",\"value\":250,\"unit\":\"mL\",\"source\":\"hkctl\","
                + "\"created\":\"\(time)\",\"metadata\":{\"\(entry.key)\":\(entry.json)}}"
        }.joined(separator: "\n") + "\n"
    }

    func healthXMLKeepsEveryMetadataValueItsTypeAndIdentity() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["import", "-"], stdin: Self.jsonLines).status, 0)
            try expectEqual(cli.run(["add", "water", "1L", "--at", "2024-05-02T08:00", "--meta", "count=42", "--meta", "code=007",
                                     "--meta", "half=0.5"]).status, 0)
            try expectEqual(cli.run(["add", "workout", "strength", "1h", "--indoor", "--at", "2024-05-02T09:00"]).status, 0)
            try expectEqual(cli.run(["add", "blood-pressure", "120/80", "--at", "2024-05-02T10:00", "--meta", "arm=2"]).status, 0)
            let original = try typedMetadata(cli)
            expectEqual(original["HKQuantityTypeIdentifierDietaryWater 2024-05-01T08:00:00+00:00"], ["count": "n:42.0"])
            expectEqual(original["HKQuantityTypeIdentifierDietaryWater 2024-05-01T08:10:00+00:00"], ["code": "s:007"])
            let folder = (cli.storePath as NSString).deletingLastPathComponent
            let file = folder + "/export.xml"
            try expectEqual(cli.run(["export", "--format", "healthxml", "--out", file]).status, 0)
            // The same store: every sample is recognised.
            let again = try cli.run(["import", file, "--format", "json"])
            expectEqual(again.status, 0, "\(again.stderr)")
            let totals = try #require(try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])["totals"]
                as? [String: Int]
            expectEqual(totals?["added"], 0, "\(again.stdout)")
            // A fresh store: the same values of the same types.
            let fresh = CLIRunner(storePath: folder + "/fresh")
            let imported = try fresh.run(["import", file])
            expectEqual(imported.status, 0, "\(imported.stderr)")
            let copy = try typedMetadata(fresh)
            for (sample, metadata) in original {
                expectEqual(copy[sample], metadata, "\(sample)")
            }
            expectEqual(copy.count, original.count)
            // And that store's export is found again in it and in the first.
            let second = folder + "/second.xml"
            try expectEqual(fresh.run(["export", "--format", "healthxml", "--out", second]).status, 0)
            for store in [cli, fresh] {
                let result = try store.run(["import", second, "--format", "json"])
                expectEqual(result.status, 0, "\(result.stderr)")
                #expect(result.stdout.contains("\"totals\":{\"added\":0"), "\(result.stdout)")
            }
        }
    }

    func typedMetadataIsANumberOnlyWhenWrittenTheWayANumberIsWritten() throws {
        try CLIRunner.withTemporaryStore { cli in
            let values = ["zip=01234", "version=1.10", "code=007", "count=42", "half=0.5", "negative=-3", "big=1e20", "plus=+5",
                          "zero=-0", "point=.5", "whole=1.0", "spaced= 42", "hex=0x10", "huge=1e+20", "word=inf"]
            let arguments = values.flatMap { ["--meta", $0] }
            try expectEqual(cli.run(["add", "water", "1L", "--at", "08:00"] + arguments).status, 0)
            try expectEqual(cli.run(["add", "workout", "running", "30min", "--at", "09:00"] + arguments).status, 0)
            try expectEqual(cli.run(["add", "food", "Oatmeal", "--energy", "350kcal", "--at", "10:00"] + arguments).status, 0)
            try expectEqual(cli.run(["add", "blood-pressure", "120/80", "--at", "11:00"] + arguments).status, 0)
            let expected = ["zip": "s:01234", "version": "s:1.10", "code": "s:007", "count": "n:42.0", "half": "n:0.5",
                            "negative": "n:-3.0", "big": "s:1e20", "plus": "s:+5", "zero": "s:-0", "point": "s:.5", "whole": "s:1.0",
                            "spaced": "s: 42", "hex": "s:0x10", "huge": "n:1e+20", "word": "s:inf"]
            let stored = try typedMetadata(cli)
            for type in ["HKQuantityTypeIdentifierDietaryWater 2024-06-01T08:00:00+00:00", "HKWorkoutTypeIdentifier 2024-06-01T09:00:00+00:00",
                         "HKCorrelationTypeIdentifierFood 2024-06-01T10:00:00+00:00",
                         "HKCorrelationTypeIdentifierBloodPressure 2024-06-01T11:00:00+00:00"] {
                let metadata = try #require(stored[type], "\(stored.keys.sorted())")
                expectEqual(metadata.filter { expected[$0.key] != nil }, expected, "\(type)")
            }
        }
    }
}

/// The checks ``MetadataRoundTripTests/checks(_:)`` runs.
private let metadataRoundTripTestsChecks: [Check<MetadataRoundTripTests>] = [
    Check("healthXMLKeepsEveryMetadataValueItsTypeAndIdentity",
          MetadataRoundTripTests.healthXMLKeepsEveryMetadataValueItsTypeAndIdentity),
    Check("typedMetadataIsANumberOnlyWhenWrittenTheWayANumberIsWritten",
          MetadataRoundTripTests.typedMetadataIsANumberOnlyWhenWrittenTheWayANumberIsWritten),
]
