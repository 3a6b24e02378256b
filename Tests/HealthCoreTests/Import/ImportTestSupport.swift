import CZlib
import Foundation
import Testing
import TestKit
@testable import HealthCore
import TextSupport

/// The import and export suites, grouped so that `swift test --filter Import` runs them all.
@Suite enum ImportTests {}

/// Fixtures and helpers for the import and export tests.
enum ImportTestSupport {
    /// `shared/fixtures/apple-health`, next to the repository (read in place, never copied into it).
    static let fixtures: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("../shared/fixtures/apple-health").standardizedFileURL

    /// Whether the shared fixtures are present (they live outside the repository).
    static let fixturesAvailable = FileManager.default.fileExists(atPath: fixtures.path)

    static let xmlFixtures = [
        "tdda_en-GB_export6s3sample.xml", "josejamilena_es-ES_iphone-mifit.export.xml",
        "danecollins_en-US_watch-excerpt.export_small.xml",
    ]
    static let zipFixture = "josejamilena_es-ES_exportación.zip"

    static func fixture(_ name: String) -> String { fixtures.appendingPathComponent(name).path }

    /// Counts the elements of an export by a plain text scan, independent of the importer: `Record` elements by
    /// their `type` attribute, other elements by name.
    static func independentCounts(ofFile path: String) throws -> [String: Int] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var counts: [String: Int] = [:]
        var rest = text[...]
        // Skip the DTD: its declarations name the elements too.
        if let end = rest.range(of: "]>") { rest = rest[end.upperBound...] }
        while let open = rest.range(of: "<") {
            rest = rest[open.upperBound...]
            let name = rest.prefix { $0.isLetter }
            guard let close = rest.firstIndex(of: ">") else { break }
            let tag = rest[..<close]
            if name == "Record", let typeStart = tag.range(of: " type=\"") {
                let type = tag[typeStart.upperBound...].prefix { $0 != "\"" }
                counts[String(type), default: 0] += 1
            } else if ["Workout", "ActivitySummary", "Correlation"].contains(String(name)) {
                counts[String(name), default: 0] += 1
            }
        }
        return counts
    }

    /// Runs `body` with a fresh temporary folder.
    static func withTemporaryDirectory<T>(_ body: (String) throws -> T) throws -> T {
        let path = TestSupport.scratchRoot + "hkctl-import-test-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try body(path)
    }

    /// The stored steps as "start end value source" lines (seconds since 1970), sorted.
    static func stepLines(_ store: JSONFileStore) throws -> [String] {
        let everything = DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd)
        return try store.samples(ofType: "HKQuantityTypeIdentifierStepCount", overlapping: everything).map {
            "\($0.start.timeIntervalSince1970) \($0.end.timeIntervalSince1970) \($0.value) \($0.source)"
        }.sorted()
    }

    /// `texts` as the files `0.json`, ... of a folder, imported into a new file store twice (the second reading every
    /// file again), with batches of `batchSize` and every batch read when `everyBatchRead`: the steps after each
    /// import (``stepLines(_:)``).
    static func stepsImportedTwice(_ texts: [String], zone: ZoneRules, batchSize: Int = 20_000,
                                   everyBatchRead: Bool = false) throws -> (first: [String], second: [String]) {
        try withTemporaryDirectory { directory in
            let folder = try writeFolder(texts, in: directory)
            let store = JSONFileStore(path: directory + "/store", lockTimeout: 2)
            var importer = HealthImporter(store: store, batchSize: batchSize, zoneRules: zone)
            importer.readsEveryHAEBatch = everyBatchRead
            _ = try importer.importFile(atPath: folder)
            let first = try stepLines(store)
            importer = HealthImporter(store: store, batchSize: batchSize, zoneRules: zone, rereadsUnchangedFiles: true)
            importer.readsEveryHAEBatch = everyBatchRead
            _ = try importer.importFile(atPath: folder)
            return (first, try stepLines(store))
        }
    }

    /// `texts` as the files `0.json`, `1.json`, ... of a new folder `in` in `directory`: its path.
    static func writeFolder(_ texts: [String], in directory: String) throws -> String {
        let folder = directory + "/in"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (number, text) in texts.enumerated() {
            try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/\(number).json"))
        }
        return folder
    }

    /// A Health Auto Export payload of step points (UTC dates, source "Jane’s iPhone").
    static func haeSteps(_ points: [(date: String, steps: Double)]) -> String {
        let data = points.map { #"{"date":"\#($0.date) +0000","qty":\#($0.steps),"source":"Jane’s iPhone"}"# }
        return #"{"data":{"metrics":[{"name":"step_count","units":"count","data":["# + data.joined(separator: ",") + "]}]}}"
    }

    /// Imports a Health Auto Export payload's JSON into `store`, in UTC.
    static func pushHAE(_ json: String, into store: JSONFileStore) throws {
        let payload = try HealthAutoExportPayload(bytes: Array(json.utf8), name: "payload.json")
        _ = try HealthImporter(store: store, timeZone: .gmt).importHealthAutoExport(payload, receivedThrough: nil)
    }

    /// The steps stored in `interval`, each sample pro rata to its time inside it, sources not merged (as
    /// `stats --no-merge` counts them).
    static func proRataSteps(_ store: JSONFileStore, in interval: DateInterval) throws -> Double {
        try store.samples(ofType: "HKQuantityTypeIdentifierStepCount", overlapping: interval).reduce(0.0) { sum, sample in
            guard case let .quantity(quantity) = sample.value else { return sum }
            let seconds = sample.end.timeIntervalSince(sample.start)
            let inside = min(sample.end, interval.end).timeIntervalSince(max(sample.start, interval.start))
            return sum + (seconds > 0 ? quantity.value * inside / seconds : quantity.value)
        }
    }

    /// A store folder's sample files (`.jsonl`) by path, to check that something wrote nothing.
    static func sampleFiles(_ folder: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for path in try FileManager.default.subpathsOfDirectory(atPath: folder) where path.hasSuffix(".jsonl") {
            files[path] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + path))
        }
        return files
    }

    /// Writes `text` to a file in `folder` and returns its path.
    static func write(_ text: String, named name: String = "export.xml", in folder: String) throws -> String {
        let path = folder + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Imports `text` as an export.xml into `store`.
    static func importXML(_ text: String, into store: SampleStore, dryRun: Bool = false, batchSize: Int = 20_000) throws -> ImportReceipt {
        try withTemporaryDirectory { folder in
            let path = try write(text, in: folder)
            return try HealthImporter(store: store, dryRun: dryRun, batchSize: batchSize).importFile(atPath: path)
        }
    }

    /// An export with the Health app's prolog around `body`.
    static func export(_ body: String, dtd: String = minimalDTD, exportDate: String = "2024-06-01 09:00:00 -0700") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE HealthData [
        \(dtd)
        ]>
        <HealthData locale="en_US">
         <ExportDate value="\(exportDate)"/>
         <Me HKCharacteristicTypeIdentifierDateOfBirth="1988-04-02" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale" HKCharacteristicTypeIdentifierBloodType="HKBloodTypeAPositive" HKCharacteristicTypeIdentifierFitzpatrickSkinType="HKFitzpatrickSkinTypeNotSet"/>
        \(body)
        </HealthData>

        """
    }

    static let minimalDTD = """
        <!-- HealthKit Export Version: 14 -->
        <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary)*)>
        <!ATTLIST HealthData
          locale CDATA #REQUIRED
        >
        """

    /// The iOS 16 DTD fault: an ATTLIST that is never closed (it made expat stop at line 156).
    static let malformedDTD = """
        <!-- HealthKit Export Version: 12 -->
        <!ELEMENT VisionPrescription ((RightEye|LeftEye|Attachment|MetadataEntry)*)>
        <!ATTLIST VisionPrescription
          type             CDATA #REQUIRED
          dateIssued       CDATA #REQUIRED
        <!ELEMENT RightEye EMPTY>
        """

    /// A `Record` line as the Health app writes it.
    static func record(_ type: String = "HKQuantityTypeIdentifierStepCount", value: String = "100", unit: String? = "count",
                       source: String = "Jane’s iPhone", start: String = "2024-05-01 08:00:00 -0700",
                       end: String = "2024-05-01 08:10:00 -0700", device: String? = nil, metadata: [(String, String)] = [],
                       created: String? = nil) -> String {
        var text = " <Record type=\"\(type)\" sourceName=\"\(source)\" sourceVersion=\"17.1\""
        if let device { text += " device=\"\(device)\"" }
        if let unit { text += " unit=\"\(unit)\"" }
        text += " creationDate=\"\(created ?? end)\" startDate=\"\(start)\" endDate=\"\(end)\" value=\"\(value)\""
        if metadata.isEmpty { return text + "/>" }
        return text + ">\n" + metadata.map { "  <MetadataEntry key=\"\($0.0)\" value=\"\($0.1)\"/>\n" }.joined() + " </Record>"
    }

    static let watchDevice = "&lt;&lt;HKDevice: 0x600001a2c0f0&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:10.1&gt;"

    /// Raw deflate (no zlib header), as zip members hold it.
    static func deflate(_ bytes: [UInt8]) -> [UInt8] {
        var stream = z_stream()
        deflateInit2_(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY, zlibVersion(),
                      Int32(MemoryLayout<z_stream>.size))
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))) + 64)
        var input = bytes
        let produced = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = uInt(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = uInt(outBuffer.count)
                _ = CZlib.deflate(&stream, Z_FINISH)
                return outBuffer.count - Int(stream.avail_out)
            }
        }
        return Array(output[0..<produced])
    }

    static func crc(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, uInt($0.count))) }
    }
}

/// Builds zip archives the way different writers do, for the archive tests.
struct ZipBuilder {
    struct Entry {
        var name: [UInt8]
        var content: [UInt8]
        var deflated = true
        /// Sizes and CRC after the data (bit 3), as the Health app writes them.
        var sizesFollow = false
        var utf8Flag = false
    }

    var entries: [Entry] = []
    /// Write zip64 records (sizes 0xFFFFFFFF with the zip64 extra field) even for small members.
    var zip64 = false

    mutating func add(_ name: String, _ content: String, deflated: Bool = true, sizesFollow: Bool = false) {
        entries.append(Entry(name: Array(name.utf8), content: Array(content.utf8), deflated: deflated, sizesFollow: sizesFollow))
    }

    func bytes() -> [UInt8] {
        var out: [UInt8] = []
        var central: [UInt8] = []
        func le16(_ value: Int, _ into: inout [UInt8]) { into += [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF)] }
        func le32(_ value: UInt32, _ into: inout [UInt8]) { for shift in [0, 8, 16, 24] { into.append(UInt8((value >> UInt32(shift)) & 0xFF)) } }
        func le64(_ value: Int, _ into: inout [UInt8]) { for shift in stride(from: 0, to: 64, by: 8) { into.append(UInt8((value >> shift) & 0xFF)) } }
        for entry in entries {
            let data = entry.deflated ? ImportTestSupport.deflate(entry.content) : entry.content
            let crc = ImportTestSupport.crc(entry.content)
            let offset = out.count
            let flags = (entry.sizesFollow ? 0x08 : 0) | (entry.utf8Flag ? 0x800 : 0)
            var extra: [UInt8] = []
            if zip64 {
                le16(1, &extra); le16(24, &extra); le64(entry.content.count, &extra); le64(data.count, &extra); le64(offset, &extra)
            }
            var local: [UInt8] = []
            le32(0x0403_4B50, &local); le16(zip64 ? 45 : 20, &local); le16(flags, &local); le16(entry.deflated ? 8 : 0, &local)
            le16(0, &local); le16(0x21, &local)
            if entry.sizesFollow { le32(0, &local); le32(0, &local); le32(0, &local) } else {
                le32(crc, &local)
                le32(zip64 ? 0xFFFF_FFFF : UInt32(data.count), &local)
                le32(zip64 ? 0xFFFF_FFFF : UInt32(entry.content.count), &local)
            }
            le16(entry.name.count, &local); le16(zip64 ? 20 : 0, &local)
            out += local + entry.name
            if zip64 { var localExtra: [UInt8] = []; le16(1, &localExtra); le16(16, &localExtra); le64(entry.content.count, &localExtra); le64(data.count, &localExtra); out += localExtra }
            out += data
            if entry.sizesFollow { le32(0x0807_4B50, &out); le32(crc, &out); le32(UInt32(data.count), &out); le32(UInt32(entry.content.count), &out) }
            le32(0x0201_4B50, &central); le16(zip64 ? 45 : 20, &central); le16(zip64 ? 45 : 20, &central); le16(flags, &central)
            le16(entry.deflated ? 8 : 0, &central); le16(0, &central); le16(0x21, &central); le32(crc, &central)
            le32(zip64 ? 0xFFFF_FFFF : UInt32(data.count), &central); le32(zip64 ? 0xFFFF_FFFF : UInt32(entry.content.count), &central)
            le16(entry.name.count, &central); le16(extra.count, &central); le16(0, &central); le16(0, &central); le16(0, &central)
            le32(0, &central); le32(zip64 ? 0xFFFF_FFFF : UInt32(offset), &central)
            central += entry.name + extra
        }
        let directoryOffset = out.count
        out += central
        if zip64 {
            let recordOffset = out.count
            le32(0x0606_4B50, &out); le64(44, &out); le16(45, &out); le16(45, &out); le32(0, &out); le32(0, &out)
            le64(entries.count, &out); le64(entries.count, &out); le64(central.count, &out); le64(directoryOffset, &out)
            le32(0x0706_4B50, &out); le32(0, &out); le64(recordOffset, &out); le32(1, &out)
        }
        le32(0x0605_4B50, &out); le16(0, &out); le16(0, &out)
        le16(zip64 ? 0xFFFF : entries.count, &out); le16(zip64 ? 0xFFFF : entries.count, &out)
        le32(zip64 ? 0xFFFF_FFFF : UInt32(central.count), &out); le32(zip64 ? 0xFFFF_FFFF : UInt32(directoryOffset), &out); le16(0, &out)
        return out
    }
}
