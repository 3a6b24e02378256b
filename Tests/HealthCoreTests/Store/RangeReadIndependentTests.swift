import Foundation
import Testing
import TestKit
@testable import HealthCore

/// Black-box model tests of range reads (``JSONFileStore/samples(ofType:overlapping:)`` and
/// ``JSONFileStore/forEachSample(ofType:overlapping:_:)``), which pass over lines whose leading dates show they lie
/// outside the range: whatever the store holds (saved under several zones, deleted, saved again, written by hand in
/// other shapes, misplaced in another month's file), a read hands over exactly the visible samples a plain model
/// filter with HealthKit's overlap rule picks.
struct RangeReadIndependentTests {
    @Test(arguments: rangeReadIndependentTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Kit = IndependentTestKit
    private typealias Ops = OperationTestKit

    static let water = "HKQuantityTypeIdentifierDietaryWater"
    static let steps = "HKQuantityTypeIdentifierStepCount"
    static let sleep = "HKCategoryTypeIdentifierSleepAnalysis"
    static let types = [water, steps, sleep]
    static let twoDays: TimeInterval = 2 * 86_400
    static let hugeStart = DateRange.distantStart
    static let hugeEnd = DateRange.distantEnd

    // MARK: - The model

    /// One sample the model knows: where its line lies (file name in its type's folder) and whether it is visible.
    struct Entry {
        var uuid: UUID
        var type: String
        var start: Date
        var end: Date
        var file: String
        var visible: Bool
    }

    /// An order of entries that does not depend on their (random) uuids, so that a seed picks the same samples and
    /// intervals on every run.
    static func ordered(_ a: Entry, _ b: Entry) -> Bool {
        (a.start, a.end, a.type, a.file, a.visible ? 1 : 0) < (b.start, b.end, b.type, b.file, b.visible ? 1 : 0)
    }

    /// HealthKit's rule, written out independently of the library.
    static func modelOverlaps(_ start: Date, _ end: Date, _ interval: DateInterval) -> Bool {
        if start == end { return interval.start <= start && start < interval.end }
        return end >= interval.start && start < interval.end
    }

    static let utcCalendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    /// year × 12 + month − 1 of the UTC month of `date`.
    static func monthIndex(_ date: Date) -> Int {
        let parts = utcCalendar.dateComponents([.year, .month], from: date)
        return parts.year! * 12 + parts.month! - 1
    }

    static func monthFile(_ date: Date) -> String {
        let parts = utcCalendar.dateComponents([.year, .month], from: date)
        return String(format: "%04d-%02d.jsonl", parts.year!, parts.month!)
    }

    static func monthIndex(ofFile name: String) -> Int? {
        guard name != "long.jsonl" else { return nil }
        let year = Int(name.prefix(4))!, month = Int(name.dropFirst(5).prefix(2))!
        return year * 12 + month - 1
    }

    /// Whether a read of `interval` reads `file` (docs/STORE.md: the months from that of `start − 2 days` to that of
    /// `end`, and `long.jsonl`).
    static func fileIsRead(_ file: String, _ interval: DateInterval) -> Bool {
        guard let month = monthIndex(ofFile: file) else { return true }
        return month >= monthIndex(interval.start.addingTimeInterval(-twoDays)) && month <= monthIndex(interval.end)
    }

    static func partitionFile(start: Date, end: Date) -> String {
        end.timeIntervalSince(start) > twoDays ? "long.jsonl" : monthFile(start)
    }

    static func expected(_ model: [UUID: Entry], _ type: String, _ interval: DateInterval) -> Set<UUID> {
        Set(model.values.filter {
            $0.visible && $0.type == type && fileIsRead($0.file, interval) && modelOverlaps($0.start, $0.end, interval)
        }.map(\.uuid))
    }

    /// Reads `interval` both ways and compares with the model; returns the number of mismatches.
    @discardableResult
    static func compare(_ store: JSONFileStore, _ model: [UUID: Entry], _ type: String, _ interval: DateInterval,
                        _ label: String) throws -> Int {
        let listed = try store.samples(ofType: type, overlapping: interval)
        var streamed: [UUID] = []
        try store.forEachSample(ofType: type, overlapping: interval) { streamed.append($0.uuid) }
        let want = expected(model, type, interval)
        let got = Set(listed.map(\.uuid))
        var bad = 0
        if got != want {
            bad += 1
            let extra = got.subtracting(want).map { describe(model[$0], $0) }
            let missing = want.subtracting(got).map { describe(model[$0], $0) }
            Issue.record("\(label) \(type) [\(iso(interval.start)), \(iso(interval.end))): extra \(extra) missing \(missing)")
        }
        if listed.count != got.count || streamed.count != Set(streamed).count {
            bad += 1
            Issue.record("\(label) \(type) \(interval): duplicates (\(listed.count) listed, \(got.count) distinct)")
        }
        if Set(streamed) != got {
            bad += 1
            Issue.record("\(label) \(type) \(interval): forEachSample and samples(ofType:) differ")
        }
        return bad
    }

    static func describe(_ entry: Entry?, _ uuid: UUID) -> String {
        guard let entry else { return "\(uuid) (unknown to the model)" }
        return "\(uuid) \(iso(entry.start))…\(iso(entry.end)) in \(entry.file) visible=\(entry.visible)"
    }

    static func iso(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    // MARK: - Random samples and intervals

    /// Month ends, local midnights and DST changes (US 10 March, EU 31 March, Lord Howe 7 April 2024) the samples
    /// and intervals gather around.
    static let hotPoints: [Date] = [
        Kit.utc(2024, 3, 1), Kit.utc(2024, 4, 1), Kit.utc(2024, 5, 1), Kit.utc(2024, 6, 1), Kit.utc(2024, 7, 1),
        Kit.utc(2024, 3, 10, 10), Kit.utc(2024, 3, 31, 1), Kit.utc(2024, 4, 6, 15), Kit.utc(2024, 3, 31, 18, 30),
        Kit.utc(2024, 4, 30, 7), Kit.utc(2024, 5, 31, 22), Kit.utc(2024, 2, 29, 23, 59, 59),
    ]
    static let spanStart = Kit.utc(2024, 2, 12)
    static let spanDays = 130

    static func randomStart(_ random: inout IndependentTestKit.SeededGenerator) -> Date {
        var start: Date
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<4:
            start = spanStart.addingTimeInterval(Double(Int.random(in: 0..<(spanDays * 86_400), using: &random)))
        case 4..<8:
            start = hotPoints.randomElement(using: &random)!
                .addingTimeInterval(Double(Int.random(in: -(3 * 86_400)...(3 * 86_400), using: &random)))
        default:
            start = hotPoints.randomElement(using: &random)!
                .addingTimeInterval([-0.001, 0, 0, 0.001, -1].randomElement(using: &random)!)
        }
        if Int.random(in: 0..<3, using: &random) == 0 {
            start.addTimeInterval(Double(Int.random(in: 1..<1_000, using: &random)) / 1_000)
        }
        return canonical(start)
    }

    /// `date` at whole milliseconds, as the same Double a stored line decodes to (whole seconds plus milliseconds / 1000):
    /// the model must hold exactly the dates the store hands back.
    static func canonical(_ date: Date) -> Date {
        let millis = (date.timeIntervalSince1970 * 1_000).rounded()
        let seconds = (millis / 1_000).rounded(.down)
        return Date(timeIntervalSince1970: seconds + (millis - seconds * 1_000) / 1_000)
    }

    static func randomLength(_ random: inout IndependentTestKit.SeededGenerator) -> TimeInterval {
        switch Int.random(in: 0..<12, using: &random) {
        case 0, 1, 2: return 0
        case 3, 4: return Double(Int.random(in: 1...3_600, using: &random))
        case 5: return Double(Int.random(in: 1...12, using: &random)) * 3_600  // crosses midnight often
        case 6: return twoDays  // the longest that stays in a month file
        case 7: return twoDays + 0.001  // the shortest in long.jsonl
        case 8, 9: return Double(Int.random(in: (2 * 86_400 + 1)..<(25 * 86_400), using: &random))
        default: return Double(Int.random(in: 1..<172_800_000, using: &random)) / 1_000
        }
    }

    static func makeSample(_ type: String, _ start: Date, _ end: Date, _ index: Int,
                           metadata: [String: MetadataValue] = [:]) -> Sample {
        let start = canonical(start), end = canonical(end)
        switch type {
        case water: return Kit.quantity(.water, Double(10 + index % 900), "mL", start, end, metadata: metadata)
        case steps:
            var sample = Kit.steps(Double(1 + index), start, end)
            sample.metadata = metadata
            return sample
        default:  // a sleep sample lasts 24 hours at most
            var sample = Kit.sleep([0, 1, 2, 3, 4, 5][index % 6], start, canonical(min(end, start.addingTimeInterval(86_400))))
            sample.metadata = metadata
            return sample
        }
    }

    static func randomInterval(_ random: inout IndependentTestKit.SeededGenerator, _ entries: [Entry]) -> DateInterval {
        func edge(_ entry: Entry) -> Date { Bool.random(using: &random) ? entry.start : entry.end }
        let nudge = [0, 0, 0, 0.001, -0.001].randomElement(using: &random)!
        switch Int.random(in: 0..<14, using: &random) {
        case 0:  // a month, or several, exactly
            let first = Int.random(in: 1...6, using: &random), count = Int.random(in: 0...2, using: &random)
            return DateInterval(start: Kit.utc(2024, first, 1), end: Kit.utc(2024, first + count, 1))
        case 1:  // zero length somewhere, often at a sample's edge
            let at = entries.isEmpty || Bool.random(using: &random) ? randomStart(&random) : edge(entries.randomElement(using: &random)!)
            return DateInterval(start: at, end: at)
        case 2, 3:  // ending exactly at (or a millisecond around) a sample's start or end
            let at = edge(entries.randomElement(using: &random)!).addingTimeInterval(nudge)
            let from = at.addingTimeInterval(-Double(Int.random(in: 0..<(20 * 86_400), using: &random)))
            return DateInterval(start: from, end: at)
        case 4, 5:  // starting exactly at a sample's start or end
            let at = edge(entries.randomElement(using: &random)!).addingTimeInterval(nudge)
            return DateInterval(start: at, end: at.addingTimeInterval(Double(Int.random(in: 0..<(20 * 86_400), using: &random))))
        case 6:  // huge
            let at = randomStart(&random)
            switch Int.random(in: 0..<3, using: &random) {
            case 0: return DateInterval(start: hugeStart, end: hugeEnd)
            case 1: return DateInterval(start: hugeStart, end: at)
            default: return DateInterval(start: at, end: hugeEnd)
            }
        case 7:  // from a month start, or to one
            let month = Kit.utc(2024, Int.random(in: 2...7, using: &random), 1)
            let length = Double(Int.random(in: 0..<(10 * 86_400), using: &random))
            return Bool.random(using: &random) ? DateInterval(start: month, end: month.addingTimeInterval(length))
                : DateInterval(start: month.addingTimeInterval(-length), end: month)
        default:
            let from = randomStart(&random)
            let length = ([1, 3_600, 86_400, 432_000, 3_888_000] as [Double]).randomElement(using: &random)!
            return DateInterval(start: from, duration: (Double.random(in: 0..<1, using: &random) * length * 1_000).rounded() / 1_000)
        }
    }

    /// Builds a store of a few hundred samples of three types under `seed`, saved in batches by instances of several
    /// zones, some deleted, some saved again (a copy under a new uuid, a greater sync version); returns the model.
    static func buildStore(_ path: String, seed: UInt64, count: Int = 300) throws -> [UUID: Entry] {
        var random = Kit.SeededGenerator(seed: seed)
        let zones: [ZoneRules] = [.gmt, Kit.zone("America/Los_Angeles"), Kit.zone("Asia/Kolkata"),
                                  Kit.zone("Europe/Berlin"), Kit.zone("Australia/Lord_Howe")]
        var model: [UUID: Entry] = [:]
        var pending: [Sample] = []
        func entry(_ sample: Sample) -> Entry {
            Entry(uuid: sample.uuid, type: sample.typeIdentifier, start: sample.start, end: sample.end,
                  file: partitionFile(start: sample.start, end: sample.end), visible: true)
        }
        func flush() throws {
            guard !pending.isEmpty else { return }
            let store = JSONFileStore(path: path, timeZone: zones.randomElement(using: &random)!, lockTimeout: 2)
            try store.save(pending)
            for sample in pending { model[sample.uuid] = entry(sample) }
            pending.removeAll()
        }
        for index in 0..<count {
            let type = types[index % 3 == 2 ? 2 : Int.random(in: 0...1, using: &random)]
            let start = randomStart(&random)
            var length = randomLength(&random)
            if type == sleep && length == 0 && index % 2 == 0 { length = 60 }
            pending.append(makeSample(type, start, start.addingTimeInterval(length), index))
            if Int.random(in: 0..<25, using: &random) == 0 || pending.count >= 40 { try flush() }
        }
        try flush()
        // Deletions, in a few calls.
        let store = JSONFileStore(path: path, timeZone: .gmt, lockTimeout: 2)
        var deleted: [Entry] = []
        for _ in 0..<3 {
            let chosen = model.values.filter(\.visible).sorted(by: Self.ordered)
                .filter { _ in Int.random(in: 0..<20, using: &random) == 0 }
            guard !chosen.isEmpty else { continue }
            _ = try store.delete(uuids: chosen.map(\.uuid), now: Kit.utc(2024, 7, 2))
            for entry in chosen { model[entry.uuid]!.visible = false }
            deleted += chosen
        }
        // Saved again: copies of deleted samples under new uuids, and samples that a greater sync version replaces.
        for (index, old) in deleted.enumerated() where index % 2 == 0 {
            pending.append(makeSample(old.type, old.start, old.end, 5_000 + index))
        }
        try flush()
        var first: [Sample] = []
        for index in 0..<12 {
            let start = randomStart(&random)
            let metadata: [String: MetadataValue] = ["HKMetadataKeySyncIdentifier": .string("sync-\(seed)-\(index)"),
                                                     "HKMetadataKeySyncVersion": .number(1)]
            first.append(makeSample(types[index % 3], start, start.addingTimeInterval(randomLength(&random)), 7_000 + index,
                                    metadata: metadata))
        }
        pending = first
        try flush()
        var second: [Sample] = []
        for (index, old) in first.enumerated() {
            let start = randomStart(&random)
            var metadata = old.metadata
            metadata["HKMetadataKeySyncVersion"] = .number(2)
            second.append(makeSample(old.typeIdentifier, start, start.addingTimeInterval(randomLength(&random)),
                                     8_000 + index, metadata: metadata))
        }
        _ = try JSONFileStore(path: path, timeZone: Kit.zone("Asia/Kolkata"), lockTimeout: 2).saveReporting(second)
        for old in first { model[old.uuid]!.visible = false }
        for sample in second { model[sample.uuid] = entry(sample) }
        // More plain samples after the deletions.
        for index in 0..<30 {
            let start = randomStart(&random)
            pending.append(makeSample(types[index % 3], start, start.addingTimeInterval(randomLength(&random)), 9_000 + index))
        }
        try flush()
        return model
    }

    // MARK: - Hand-written lines

    /// `date` written at `offset` seconds east of UTC: `YYYY-MM-DD?HH:MM:SS[.fraction]` with the separator and
    /// offset spelled as given (`zone` nil: `Z`).
    static func spell(_ date: Date, offset: Int, separator: String = "T", fraction: Int = 3, zone: String? = nil) -> String {
        let shifted = date.addingTimeInterval(Double(offset))
        let parts = utcCalendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: shifted)
        let whole = shifted.timeIntervalSince1970.rounded(.down)
        let millis = Int(((shifted.timeIntervalSince1970 - whole) * 1_000).rounded())
        var text = String(format: "%04d-%02d-%02d%@%02d:%02d:%02d", parts.year!, parts.month!, parts.day!, separator,
                          parts.hour!, parts.minute!, parts.second!)
        if fraction > 0 {
            text += "." + String(String(format: "%03d", millis).prefix(fraction))
            if fraction > 3 { text += String(repeating: "0", count: fraction - 3) }
        }
        if let zone { return text + zone }
        let sign = offset < 0 ? "-" : "+"
        return text + String(format: "%@%02d:%02d", sign, abs(offset) / 3_600, abs(offset) % 3_600 / 60)
    }

    /// A water line for `uuid` from `start` to `end` in one of several shapes other than hkctl's own.
    static func handLine(shape: Int, uuid: UUID, start: Date, end: Date, sequence: UInt64? = nil,
                         source: String = "hand") -> String {
        handLineFrom(shape: shape, uuid: uuid, start: start, end: end, sequence: sequence)
            .replacingOccurrences(of: "\"source\":\"hand\"", with: "\"source\":\"\(source)\"")
            .replacingOccurrences(of: "\"source\": \"hand\"", with: "\"source\": \"\(source)\"")
            .replacingOccurrences(of: "\"source\":\"a\\/b\"", with: "\"source\":\"\(source)\"")
    }

    static func handLineFrom(shape: Int, uuid: UUID, start: Date, end: Date, sequence: UInt64?) -> String {
        let id = uuid.uuidString.lowercased()
        let seq = sequence.map { ",\"seq\":\($0)" } ?? ""
        switch shape % 8 {
        case 0:  // keys in another order
            return "{\"source\":\"hand\",\"end\":\"\(spell(end, offset: 7_200))\",\"value\":250,\"unit\":\"mL\","
                + "\"start\":\"\(spell(start, offset: 7_200))\",\"type\":\"\(water)\",\"uuid\":\"\(id)\"\(seq)}"
        case 1:  // spaces after colons and commas
            return "{\"uuid\": \"\(id)\", \"type\": \"\(water)\", \"start\": \"\(spell(start, offset: -25_200))\", "
                + "\"end\": \"\(spell(end, offset: -25_200))\", \"value\": 250, \"unit\": \"mL\", \"source\": \"hand\"\(seq)}"
        case 2:  // escaped characters in the type
            return "{\"uuid\":\"\(id)\",\"type\":\"HKQuantityType\\u0049dentifierDietary\\u0057ater\","
                + "\"start\":\"\(spell(start, offset: 0))\",\"end\":\"\(spell(end, offset: 0))\",\"value\":250,"
                + "\"unit\":\"mL\",\"source\":\"hand\"\(seq)}"
        case 3:  // Z, and a 6-digit fraction
            return "{\"uuid\":\"\(id)\",\"type\":\"\(water)\",\"start\":\"\(spell(start, offset: 0, zone: "Z"))\","
                + "\"end\":\"\(spell(end, offset: 0, fraction: 6, zone: "Z"))\",\"value\":250,\"unit\":\"mL\",\"source\":\"hand\"\(seq)}"
        case 4:  // offsets without a colon, and hours only
            return "{\"uuid\":\"\(id)\",\"type\":\"\(water)\",\"start\":\"\(spell(start, offset: 19_800, zone: "+0530"))\","
                + "\"end\":\"\(spell(end, offset: -18_000, zone: "-05"))\",\"value\":250,\"unit\":\"mL\",\"source\":\"hand\"\(seq)}"
        case 5:  // a space for the T, no fraction (the sample's dates are whole seconds here)
            return "{\"uuid\":\"\(id)\",\"type\":\"\(water)\",\"start\":\"\(spell(start, offset: 3_600, separator: " ", fraction: 0))\","
                + "\"end\":\"\(spell(end, offset: 3_600, separator: "t", fraction: 0))\",\"value\":250,\"unit\":\"mL\",\"source\":\"hand\"\(seq)}"
        case 6:  // an upper-case uuid, offset +13:45
            return "{\"uuid\":\"\(uuid.uuidString.uppercased())\",\"type\":\"\(water)\",\"start\":\"\(spell(start, offset: 49_500))\","
                + "\"end\":\"\(spell(end, offset: 49_500))\",\"value\":250,\"unit\":\"mL\",\"source\":\"hand\"\(seq)}"
        default:  // the store's own shape, but tabs around the object and an escaped slash in the source
            return "\t{\"uuid\":\"\(id)\",\"type\":\"\(water)\",\"start\":\"\(spell(start, offset: -36_000))\","
                + "\"end\":\"\(spell(end, offset: -36_000))\",\"value\":250,\"unit\":\"mL\",\"source\":\"a\\/b\"\(seq)} "
        }
    }

    static func appendLines(_ lines: [String], to file: String) throws {
        if !Kit.exists(file) { try Kit.write("", to: file) }
        try Kit.append(lines.map { $0 + "\n" }.joined(), to: file)
    }

    static func folder(_ path: String, _ type: String) -> String { path + "/" + JSONFileStore.typeFolder(type) }

    // MARK: - Checks

    /// Several seeded stores, each read for many random intervals of each type.
    func randomStoresMatchTheModel() throws {
        for seed: UInt64 in [4_701, 4_702, 4_703] {
            try Ops.withStore { _, path in
                let model = try Self.buildStore(path, seed: seed)
                let store = JSONFileStore(path: path, timeZone: .gmt, lockTimeout: 2)
                let entries = model.values.sorted(by: Self.ordered)
                var random = Kit.SeededGenerator(seed: seed &* 31)
                var mismatches = 0
                for round in 0..<150 {
                    let interval = Self.randomInterval(&random, entries)
                    for type in Self.types {
                        mismatches += try Self.compare(store, model, type, interval, "seed \(seed) round \(round)")
                    }
                    if mismatches > 5 { return }
                }
                // The whole store, once: every visible sample, none hidden.
                let all = DateInterval(start: Self.hugeStart, end: Self.hugeEnd)
                for type in Self.types {
                    let visible = model.values.filter { $0.visible && $0.type == type }.count
                    expectEqual(try store.samples(ofType: type, overlapping: all).count, visible, "seed \(seed) \(type)")
                }
            }
        }
    }

    /// Lines of other shapes appended to the right partitions are found exactly when they overlap, between the store's
    /// own lines; so is a line written by hand for a deleted uuid with a later change number, and not one without.
    func handWrittenLinesOfOtherShapes() throws {
        try Ops.withStore { _, path in
            var model = try Self.buildStore(path, seed: 4_710, count: 150)
            var random = Kit.SeededGenerator(seed: 4_711)
            var byFile: [String: [String]] = [:]
            for index in 0..<160 {
                var start = Self.randomStart(&random)
                var length = Self.randomLength(&random)
                if index % 8 == 5 {  // no fraction in that shape
                    start = Date(timeIntervalSince1970: start.timeIntervalSince1970.rounded(.down))
                    length = length.rounded(.down)
                }
                let end = Self.canonical(start.addingTimeInterval(length))
                // From the seed too, so that a failure names the same lines at every run.
                let uuid = UUID(uuid: withUnsafeBytes(of: (random.next(), random.next())) { raw in
                    var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
                    withUnsafeMutableBytes(of: &bytes) { $0.copyMemory(from: raw) }
                    return bytes
                })
                let file = Self.partitionFile(start: start, end: end)
                byFile[file, default: []].append(Self.handLine(shape: index, uuid: uuid, start: start, end: end))
                model[uuid] = Entry(uuid: uuid, type: Self.water, start: start, end: end, file: file, visible: true)
            }
            // Deleted water samples written again by hand under their source: with a change number after the deletion's
            // they show (1,000,000 is later than any this store handed out); without one the deletion hides them.
            let store = JSONFileStore(path: path, timeZone: .gmt, lockTimeout: 2)
            let deletedWater = model.values.filter { !$0.visible && $0.type == Self.water }
                .sorted(by: Self.ordered)
            #expect(deletedWater.count >= 2, "the seed deletes too few water samples")
            for (index, old) in deletedWater.enumerated() {
                let again = index % 2 == 0
                byFile[old.file, default: []].append(Self.handLine(shape: [0, 1, 2, 3, 4, 6, 7][index % 7], uuid: old.uuid, start: old.start, end: old.end,
                                                                    sequence: again ? 1_000_000 : nil, source: "hkctl"))
                model[old.uuid]!.visible = again
            }
            for (file, lines) in byFile.sorted(by: { $0.key < $1.key }) {
                try Self.appendLines(lines.shuffled(using: &random), to: Self.folder(path, Self.water) + "/" + file)
            }
            let entries = model.values.filter { $0.type == Self.water }.sorted(by: Self.ordered)
            var mismatches = 0
            for round in 0..<300 where mismatches <= 5 {
                mismatches += try Self.compare(store, model, Self.water, Self.randomInterval(&random, entries), "hand round \(round)")
            }
            let all = DateInterval(start: Self.hugeStart, end: Self.hugeEnd)
            expectEqual(try store.samples(ofType: Self.water, overlapping: all).count,
                        model.values.filter { $0.visible && $0.type == Self.water }.count)
        }
    }

    /// Samples written by hand into another month's file than their start's (earlier and later months, a short one in
    /// long.jsonl, a long one in a month file): a read hands one over exactly when it overlaps and reads its file.
    func misplacedLinesFollowTheFilesRead() throws {
        try Ops.withStore { _, path in
            var model = try Self.buildStore(path, seed: 4_720, count: 120)
            var random = Kit.SeededGenerator(seed: 4_721)
            let codec = SampleLineCodec(catalogue: .standard, timeZone: Kit.zone("America/Los_Angeles"))
            let months = ["2024-01.jsonl", "2024-02.jsonl", "2024-03.jsonl", "2024-04.jsonl", "2024-05.jsonl",
                          "2024-06.jsonl", "2024-07.jsonl", "long.jsonl"]
            var byFile: [String: [String]] = [:]
            var misplaced: [Entry] = []
            for index in 0..<80 {
                var start = Self.randomStart(&random)
                var length = Self.randomLength(&random)
                if index % 3 == 0 {  // hand shapes without a fraction need whole seconds
                    start = Date(timeIntervalSince1970: start.timeIntervalSince1970.rounded(.down))
                    length = length.rounded(.down)
                }
                let end = Self.canonical(start.addingTimeInterval(length))
                let right = Self.partitionFile(start: start, end: end)
                let file = months.filter { $0 != right }.randomElement(using: &random)!
                let sample = Self.makeSample(Self.water, start, end, index)
                let line = index % 3 == 0 ? Self.handLine(shape: index, uuid: sample.uuid, start: start, end: end)
                    : codec.encode(sample, sequence: UInt64(500_000 + index))
                byFile[file, default: []].append(line)
                let entry = Entry(uuid: sample.uuid, type: Self.water, start: start, end: end, file: file, visible: true)
                model[sample.uuid] = entry
                misplaced.append(entry)
            }
            for (file, lines) in byFile.sorted(by: { $0.key < $1.key }) {
                try Self.appendLines(lines, to: Self.folder(path, Self.water) + "/" + file)
            }
            let store = JSONFileStore(path: path, timeZone: .gmt, lockTimeout: 2)
            let entries = model.values.filter { $0.type == Self.water }.sorted(by: Self.ordered)
            var mismatches = 0
            for round in 0..<200 where mismatches <= 5 {
                mismatches += try Self.compare(store, model, Self.water, Self.randomInterval(&random, entries), "misplaced round \(round)")
            }
            // Around each misplaced sample: the sample itself, and the months its file holds, whole and in part.
            for (index, entry) in misplaced.enumerated() where mismatches <= 5 {
                var intervals = [DateInterval(start: entry.start, end: entry.end.addingTimeInterval(entry.start == entry.end ? 0.001 : 0)),
                                 DateInterval(start: entry.end, end: entry.end.addingTimeInterval(3_600))]
                if let month = Self.monthIndex(ofFile: entry.file) {
                    let first = Kit.utc(month / 12, month % 12 + 1, 1), next = Kit.utc(month / 12, month % 12 + 2, 1)
                    intervals += [DateInterval(start: first, end: next),
                                  DateInterval(start: first.addingTimeInterval(86_400), end: next.addingTimeInterval(-86_400)),
                                  DateInterval(start: min(first, entry.start), end: max(next, entry.end.addingTimeInterval(1))),
                                  DateInterval(start: next.addingTimeInterval(-Self.twoDays + 1), end: next.addingTimeInterval(86_400))]
                }
                for (which, interval) in intervals.enumerated() {
                    mismatches += try Self.compare(store, model, Self.water, interval, "misplaced \(index).\(which)")
                }
            }
        }
    }
}

/// The checks ``RangeReadIndependentTests/checks(_:)`` runs.
private let rangeReadIndependentTestsChecks: [Check<RangeReadIndependentTests>] = [
    Check("randomStoresMatchTheModel", RangeReadIndependentTests.randomStoresMatchTheModel),
    Check("handWrittenLinesOfOtherShapes", RangeReadIndependentTests.handWrittenLinesOfOtherShapes),
    Check("misplacedLinesFollowTheFilesRead", RangeReadIndependentTests.misplacedLinesFollowTheFilesRead),
]
