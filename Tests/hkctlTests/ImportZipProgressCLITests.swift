import Foundation
import Testing
import TestKit

/// `hkctl import export.zip --progress` measures the export inside the zip, uncompressed (issue 22).
struct ImportZipProgressCLITests {
    @Test func progressOfAZipIsAgainstTheUncompressedExport() throws {
        try CLIRunner.withTemporaryStore { cli in
            let folder = (cli.storePath as NSString).deletingLastPathComponent
            let zip = folder + "/export.zip"
            // 30,000 records that compress well: the zip is a small fraction of the export.
            let script = """
                import sys, zipfile
                records = "".join(
                    ' <Record type="HKQuantityTypeIdentifierStepCount" sourceName="p" unit="count" '
                    'startDate="2024-05-01 %02d:%02d:%02d -0700" endDate="2024-05-01 %02d:%02d:%02d -0700" value="%d"/>\\n'
                    % (i // 3600 % 24, i // 60 % 60, i % 60, i // 3600 % 24, i // 60 % 60, i % 60, i % 97 + 1) for i in range(30000))
                text = '<?xml version="1.0" encoding="UTF-8"?>\\n<HealthData locale="en_US">\\n' + records + '</HealthData>\\n'
                with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as archive:
                    archive.writestr("apple_health_export/export_cda.xml", '<?xml version="1.0"?><ClinicalDocument/>')
                    archive.writestr("apple_health_export/export.xml", text)
                print(len(text.encode()))
                """
            let made = try SystemPackages.shell("python3 -c '\(script.replacingOccurrences(of: "'", with: "'\\''"))' '\(zip)'")
            expectEqual(made.status, 0, "\(made.err)")
            let uncompressed = try #require(Int(made.out.trimmingCharacters(in: .whitespacesAndNewlines)))
            let compressed = try #require(try FileManager.default.attributesOfItem(atPath: zip)[.size] as? Int)
            #expect(compressed * 5 < uncompressed)
            let result = try cli.run(["import", zip, "--progress", "--dry-run"])
            expectEqual(result.status, 0, "\(result.stderr)")
            let lines = result.stderr.split(separator: "\n").map(String.init)
            let total = String(format: "%.1f MB", Double(uncompressed) / 1_000_000)
            #expect(!lines.isEmpty && lines.allSatisfy { $0.contains("/" + total) }, "\(lines)")
            let percents = lines.compactMap { line in line.split(separator: "]").dropFirst().first.flatMap { Int($0.split(separator: "%").first!.trimmingCharacters(in: .whitespaces)) } }
            #expect(percents.count == lines.count && percents.allSatisfy { $0 <= 100 }, "\(lines)")
            expectEqual(percents.last, 100)
            expectEqual(lines.last?.contains("\(total)/\(total)"), true, "\(lines)")
            expectEqual(lines.last?.contains("30,000 records"), true)
        }
    }
}
