import Foundation
import Testing
import TestKit
@testable import HealthCore
import TextSupport

extension ImportTests {
    /// Archives as the Health app and other zip writers make them.
    struct ZipArchiveTests {
        /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
        /// build a tenth of a `@Test` apiece (README.md, "Development").
        @Test(arguments: zipArchiveTestsChecks)
        func checks(_ check: Check<Self>) async throws {
            try await check.run(on: Self())
        }

        private typealias Support = ImportTestSupport

        private let export = ImportTestSupport.export(
            (0..<50).map { ImportTestSupport.record(value: String($0 + 1), start: String(format: "2024-05-01 08:%02d:00 -0700", $0),
                                                    end: String(format: "2024-05-01 08:%02d:30 -0700", $0)) }.joined(separator: "\n"))
        private let cda = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<ClinicalDocument xmlns=\"urn:hl7-org:v3\"><component/></ClinicalDocument>\n"

        private func importZip(_ zip: ZipBuilder) throws -> (ImportReceipt, InMemorySampleStore) {
            try Support.withTemporaryDirectory { folder in
                let path = folder + "/export.zip"
                try Data(zip.bytes()).write(to: URL(fileURLWithPath: path))
                let store = InMemorySampleStore()
                return (try HealthImporter(store: store).importFile(atPath: path), store)
            }
        }

        @Test(arguments: ["apple_health_export/export.xml", "eksport.xml", "导出.xml", "apple_health_export/exportación.xml"])
        func findsTheExportByContentWhateverItsName(name: String) throws {
            var zip = ZipBuilder()
            zip.add("apple_health_export/", "", deflated: false)
            zip.add("apple_health_export/export_cda.xml", cda)
            zip.add(name, export, sizesFollow: true)
            zip.add("apple_health_export/workout-routes/route_2024-05-01_6.00pm.gpx", "<gpx creator=\"Apple Health Export\"/>")
            let (receipt, store) = try importZip(zip)
            expectEqual(receipt.archiveMember, name)
            expectEqual(receipt.totals.added, 50)
            expectEqual(store.allSamples.count, 50)
        }

        func readsDecomposedNamesWithoutTheUTF8Flag() throws {
            var zip = ZipBuilder()
            zip.entries.append(ZipBuilder.Entry(name: Array("exportacio\u{0301}n.xml".utf8), content: Array(export.utf8)))
            let (receipt, _) = try importZip(zip)
            expectEqual(receipt.archiveMember, "exportación.xml")
            expectEqual(receipt.totals.added, 50)
        }

        func readsStoredAndZip64Members() throws {
            var stored = ZipBuilder()
            stored.add("export.xml", export, deflated: false)
            try expectEqual(importZip(stored).0.totals.added, 50)
            var zip64 = ZipBuilder()
            zip64.zip64 = true
            zip64.add("apple_health_export/export_cda.xml", cda)
            zip64.add("apple_health_export/export.xml", export)
            try expectEqual(importZip(zip64).0.totals.added, 50)
        }

        /// Progress of a zip is measured on the export inside it, uncompressed, against the size the central
        /// directory gives (zip64 too): never past it, all of it at the end (issue 22).
        @Test(arguments: [false, true])
        func progressCountsTheUncompressedExport(zip64: Bool) throws {
            var zip = ZipBuilder()
            zip.zip64 = zip64
            zip.add("apple_health_export/export_cda.xml", cda)
            zip.add("apple_health_export/export.xml", export)
            try Support.withTemporaryDirectory { folder in
                let path = folder + "/export.zip"
                let bytes = zip.bytes()
                try Data(bytes).write(to: URL(fileURLWithPath: path))
                let importer = HealthImporter(store: InMemorySampleStore(), progressInterval: 10)
                var reports: [ImportProgress] = []
                _ = try importer.importFile(atPath: path) { reports.append($0) }
                #expect(reports.count > 2)
                #expect(reports.allSatisfy { $0.totalBytes == export.utf8.count }, "not the zip's \(bytes.count) bytes")
                #expect(reports.allSatisfy { $0.bytesRead <= export.utf8.count && ($0.fraction ?? 2) <= 1 })
                #expect(zip64 || bytes.count < export.utf8.count, "the archive is smaller than the export")
                #expect(reports.last?.finished == true && reports.last?.fraction == 1)
                #expect(Swift.zip(reports, reports.dropFirst()).allSatisfy { $0.bytesRead <= $1.bytesRead })
            }
        }

        func anArchiveWithoutAnExportIsRefused() throws {
            var zip = ZipBuilder()
            zip.add("apple_health_export/export_cda.xml", cda)
            #expect {
                _ = try importZip(zip)
            } throws: { error in
                guard case let ImportError.noExportInArchive(_, members)? = error as? ImportError else { return false }
                return members == ["apple_health_export/export_cda.xml"]
            }
        }

        func aTruncatedArchiveIsReadUpToWhereItStops() throws {
            var zip = ZipBuilder()
            zip.add("apple_health_export/export.xml", export, sizesFollow: true)
            let bytes = zip.bytes()
            let cut = Array(bytes[0..<(bytes.count * 2 / 3)])
            try Support.withTemporaryDirectory { folder in
                let path = folder + "/export.zip"
                try Data(cut).write(to: URL(fileURLWithPath: path))
                let store = InMemorySampleStore()
                let receipt = try HealthImporter(store: store).importFile(atPath: path)
                #expect(!receipt.complete)
                #expect(receipt.hasProblems)
                expectEqual(store.allSamples.count, receipt.totals.added)
                #expect(receipt.problems.contains { $0.reason.contains("truncated") })
            }
        }

        func streamsAnArchiveFromAPipe() throws {
            var zip = ZipBuilder()
            zip.add("apple_health_export/export_cda.xml", cda, sizesFollow: true)
            zip.add("apple_health_export/export.xml", export, sizesFollow: true)
            let stream = ZipStream(input: ArrayByteReader(zip.bytes(), chunk: 777), archiveName: "standard input")
            guard case let .found(name, reader) = try stream.firstMember(sniffLength: 4096, where: ImportInput.isHealthXML) else {
                Issue.record("the export was not found")
                return
            }
            expectEqual(name, "apple_health_export/export.xml")
            var content: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 1000)
            while true {
                let count = try buffer.withUnsafeMutableBytes { try reader.read(into: $0) }
                if count == 0 { break }
                content += buffer[0..<count]
            }
            expectEqual(content, Array(export.utf8))
        }

        func aDamagedMemberFailsItsCheck() throws {
            var zip = ZipBuilder()
            zip.add("export.xml", export)
            var bytes = zip.bytes()
            bytes[60] ^= 0xFF  // inside the deflate data
            try Support.withTemporaryDirectory { folder in
                let path = folder + "/export.zip"
                try Data(bytes).write(to: URL(fileURLWithPath: path))
                do {
                    let receipt = try HealthImporter(store: InMemorySampleStore()).importFile(atPath: path)
                    #expect(receipt.hasProblems, "a damaged member is reported")
                } catch let error as ImportError {
                    // Damage in the first bytes hides the export altogether.
                    #expect([ImportError.noExportInArchive(path, members: ["export.xml"])].contains(error) || "\(error)".contains("damaged"))
                }
            }
        }
    }
}

/// The checks ``ImportTests.ZipArchiveTests/checks(_:)`` runs.
private let zipArchiveTestsChecks: [Check<ImportTests.ZipArchiveTests>] = [
    Check("readsDecomposedNamesWithoutTheUTF8Flag", ImportTests.ZipArchiveTests.readsDecomposedNamesWithoutTheUTF8Flag),
    Check("readsStoredAndZip64Members", ImportTests.ZipArchiveTests.readsStoredAndZip64Members),
    Check("anArchiveWithoutAnExportIsRefused", ImportTests.ZipArchiveTests.anArchiveWithoutAnExportIsRefused),
    Check("aTruncatedArchiveIsReadUpToWhereItStops",
          ImportTests.ZipArchiveTests.aTruncatedArchiveIsReadUpToWhereItStops),
    Check("streamsAnArchiveFromAPipe", ImportTests.ZipArchiveTests.streamsAnArchiveFromAPipe),
    Check("aDamagedMemberFailsItsCheck", ImportTests.ZipArchiveTests.aDamagedMemberFailsItsCheck),
]
