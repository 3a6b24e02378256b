import Foundation
import Testing
import TestKit

/// Independent black-box checks, through the built binary only, of session 46's two narrowed readers:
///
/// - a look-up by uuid (`delete UUID`, `delete PREFIX`, `edit UUID VALUE`) decodes only the lines whose leading
///   `{"uuid":"…"` it looks for, yet must still find lines written another way (keys in another order, an
///   upper-case uuid, spaces: docs/STORE.md says the files may be edited by hand);
/// - a page of `changes --limit N` decodes only the lines whose trailing `,"seq":N}` is after the anchor and within
///   the page, yet paging through with any N must give exactly the added and deleted changes, in the same order, of
///   one `changes` without a limit, also after deletes, edits, undo and `compact --retention 0`.
///
/// Every store is random, from a seeded generator; each failure message names the seed.
struct UUIDLookupAndPagingIndependentTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test.
    @Test(arguments: uUIDLookupAndPagingIndependentTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    // MARK: Checks

    /// A few hundred samples imported in several line shapes, then random deletes by uuid (either case), by prefix
    /// (unique or ambiguous), of several uuids at once, of unknown uuids, edits and undos: after each, `list` of
    /// each type equals the model.
    func randomDeletesAndEditsByUUIDAndPrefixFollowTheModel() throws {
        for seed: UInt64 in [0x46_0001] {
            try CLIRunner.withTemporaryStore { cli in
                let run = Run(cli: cli, seed: seed)
                let lines = run.makeSamples(count: 240, shapes: true)
                try run.importLines(lines)
                run.expectListsMatchModel("after the import")
                for step in 0..<70 {
                    try run.randomLookupStep(step)
                    if step % 6 == 5 { run.expectListsMatchModel("after step \(step)") }
                }
                run.expectListsMatchModel("at the end")
            }
        }
    }

    /// docs/STORE.md: "Readers accept any valid JSON object per line ... so the files can be edited by hand with
    /// care." The importer writes every line in the store's own shape, so to reach the narrowed readers with lines in
    /// another shape this check rewrites the partition files itself: the same fields and change numbers, with the
    /// keys in another order (`seq` not last, `uuid` not first), the uuid in upper case, or spaces. Look-ups by uuid
    /// and prefix must still find those lines (and count them for ambiguity), and pages of `changes` must still
    /// match the whole answer.
    func handWrittenLinesAreFoundByUUIDPrefixAndChangesPages() throws {
        for seed: UInt64 in [0x46_1001] {
            try CLIRunner.withTemporaryStore { cli in
                let run = Run(cli: cli, seed: seed)
                try run.importLines(run.makeSamples(count: 90, shapes: false))
                let reshaped = try run.rewritePartitionsByHand()
                #expect(reshaped > 20, "seed \(seed): only \(reshaped) lines rewritten")
                run.expectListsMatchModel("after the hand rewrite")
                try run.expectPagingMatchesWhole(limits: [1, 3, 50], phase: "after the hand rewrite")
                // Delete or edit hand-written lines first, by full uuid (both cases) and by prefix.
                let handUUIDs = run.handWritten.sorted().shuffled(using: &run.rng)
                for (index, uuid) in handUUIDs.prefix(24).enumerated() {
                    guard run.model[uuid] != nil else { continue }
                    switch index % 4 {
                    case 0: try run.deleteExpectingSuccess([uuid], shown: [uuid])
                    case 1: try run.deleteExpectingSuccess([uuid], shown: [uuid.uppercased()])
                    case 2: try run.deleteOrEditByPrefix(of: uuid)
                    default: try run.edit(uuid, spelled: run.prefixSpelling(of: uuid, length: 36))
                    }
                    run.expectListsMatchModel("after hand-line step \(index)")
                }
                try run.expectPagingMatchesWhole(limits: [1, 2, 7], phase: "after deleting hand-written lines")
                for step in 0..<20 { try run.randomLookupStep(step) }
                run.expectListsMatchModel("after random steps")
                try run.expectPagingMatchesWhole(limits: [2, 4], phase: "after random steps")
                try run.compact()
                try run.expectPagingMatchesWhole(limits: [1, 5, 50], phase: "after compact")
                run.expectListsMatchModel("after compact")
            }
        }
    }

    /// Paging through `changes --limit N` (N = 1, 2, 7, 50 and a random one), from the start and from anchors handed
    /// out earlier, gives exactly the whole answer's added and deleted changes in order, through deletes, edits,
    /// adds, a range delete, undos and two `compact --retention 0`; the whole answer's added uuids are `list`'s.
    func pagesOfChangesEqualTheWholeAnswerThroughDeletesUndoAndCompact() throws {
        for seed: UInt64 in [0x46_2001] {
            try CLIRunner.withTemporaryStore { cli in
                let run = Run(cli: cli, seed: seed)
                try run.importLines(run.makeSamples(count: 110, shapes: true))
                try run.expectPagingMatchesWhole(limits: [1, 2, 7, 50], phase: "after the import")
                for step in 0..<14 { try run.randomMutation(step) }
                try run.expectPagingMatchesWhole(limits: [2, 7, 50], phase: "after deletes and edits")
                try run.undo()
                try run.undo()
                try run.expectPagingMatchesWhole(limits: [2, 7, 50], phase: "after two undos")
                try run.deleteRange()
                try run.expectPagingMatchesWhole(limits: [2, 7], phase: "after a range delete")
                let beforeCompact = run.anchors
                try run.compact()
                try run.expectOldAnchorsRefusedAlike(beforeCompact)
                try run.expectPagingMatchesWhole(limits: [1, 2, 7, 50], phase: "after compact")
                for step in 0..<10 { try run.randomMutation(100 + step) }
                try run.undo()
                try run.expectPagingMatchesWhole(limits: [2, 7, 50], phase: "after writes and undo past compact")
                try run.compact()
                for step in 0..<4 { try run.randomMutation(200 + step) }
                try run.expectPagingMatchesWhole(limits: [1, 2, 7, 50], phase: "after a second compact")
                run.expectListsMatchModel("at the end")
            }
        }
    }
}

// MARK: - The harness

/// One random store, its model and the generator that drives it.
private final class Run {
    struct Kind {
        let name: String, identifier: String, unit: String, values: ClosedRange<Int>, span: ClosedRange<Int>
    }
    static let kinds = [
        Kind(name: "water", identifier: "HKQuantityTypeIdentifierDietaryWater", unit: "mL", values: 50...1000, span: 0...0),
        Kind(name: "steps", identifier: "HKQuantityTypeIdentifierStepCount", unit: "count", values: 1...5000, span: 1...30),
        Kind(name: "heart-rate", identifier: "HKQuantityTypeIdentifierHeartRate", unit: "count/min", values: 40...180,
             span: 0...0),
    ]

    /// What `list` should show of one sample (uuid aside).
    struct Expected: Equatable, CustomStringConvertible {
        var type: String, start: String, end: String, value: Int, unit: String, source: String
        var description: String { "\(type)|\(start)|\(end)|\(value)|\(unit)|\(source)" }
    }

    let cli: CLIRunner
    let seed: UInt64
    var rng: IndependentTestKit.SeededGenerator
    /// Every sample that should be visible: lower-case uuid → what list shows.
    var model: [String: Expected] = [:]
    /// Every uuid ever handed out or seen (so "unknown" uuids really are unknown).
    var everSeen: Set<String> = []
    /// Uuids whose store line this test rewrote by hand.
    var handWritten: Set<String> = []
    /// Anchors handed out so far, oldest first.
    var anchors: [String] = []
    /// What the last successful delete removed (for undo), nil when the last operation was something else.
    var lastDeleted: [String: Expected]?
    private var nextMinute = 0
    /// The pinned clock: a day later at each `compact --retention 0`, so that the tombstones written before it are
    /// older than the retention (at the same instant they are 0 days old and kept).
    var now = 0
    var nowText: String { "2024-07-0\(1 + now)T00:00:00Z" }
    /// A corrected sample's uuid → the uuid its `@corrects` names (the first sample of a chain of edits).
    var corrects: [String: String] = [:]
    /// Uuids whose `@corrects` this test predicted to be absent or `corrects`' (restored copies of deleted samples).
    var predicted: Set<String> = []

    init(cli: CLIRunner, seed: UInt64) {
        self.cli = cli
        self.seed = seed
        rng = IndependentTestKit.SeededGenerator(seed: seed)
    }

    // MARK: Running

    @discardableResult
    func hk(_ arguments: [String], stdin: String? = nil) throws -> CLIResult {
        try cli.run(arguments, stdin: stdin, environment: ["HKCTL_NOW": nowText, "TZ": "UTC"])
    }

    /// Runs a command that must succeed.
    @discardableResult
    func ok(_ arguments: [String], stdin: String? = nil, _ why: String = "") throws -> CLIResult {
        let result = try hk(arguments, stdin: stdin)
        expectEqual(result.status, 0, "seed \(seed): hkctl \(arguments.joined(separator: " ")) \(why): \(result.stderr)")
        return result
    }

    func json(_ text: String, _ what: String) -> Any? {
        let object = try? JSONSerialization.jsonObject(with: Data(text.utf8))
        if object == nil { Issue.record("seed \(seed): \(what) is not JSON: \(text.prefix(300))") }
        return object
    }

    // MARK: Samples

    func randomUUID() -> String {
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &rng) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = bytes.map { String(format: "%02x", $0) }.joined()
        return Run.dashed(hex)
    }

    static func dashed(_ hex: String) -> String {
        let h = Array(hex)
        return String(h[0..<8]) + "-" + String(h[8..<12]) + "-" + String(h[12..<16]) + "-" + String(h[16..<20]) + "-"
            + String(h[20..<32])
    }

    static func hexDigits(_ uuid: String) -> String { uuid.lowercased().filter { $0 != "-" } }

    /// A fresh uuid, sometimes sharing its first 8 to 11 hex digits with one already made (so prefixes collide).
    func freshUUID(family: [String]) -> String {
        while true {
            var uuid = randomUUID()
            if let relative = family.randomElement(using: &rng), Int.random(in: 0..<3, using: &rng) == 0 {
                let shared = Int.random(in: 8...11, using: &rng)
                let digits = Array(Run.hexDigits(relative).prefix(shared)) + Array(Run.hexDigits(uuid).dropFirst(shared))
                uuid = Run.dashed(String(digits))
            }
            if !everSeen.contains(uuid) {
                everSeen.insert(uuid)
                return uuid
            }
        }
    }

    func time(minute: Int) -> String {
        let date = Date(timeIntervalSince1970: 1_711_929_600 + Double(minute) * 60)  // 2024-04-01T00:00:00Z
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss'+00:00'"
        return formatter.string(from: date)
    }

    /// `count` random samples (each at its own minute, April to June 2024) as import lines, added to the model.
    func makeSamples(count: Int, shapes: Bool) -> [String] {
        var lines: [String] = []
        var family: [String] = []
        for _ in 0..<count {
            let kind = Run.kinds.randomElement(using: &rng)!
            let uuid = freshUUID(family: family)
            family.append(uuid)
            nextMinute += Int.random(in: 40...900, using: &rng)
            let start = time(minute: nextMinute)
            let end = time(minute: nextMinute + Int.random(in: kind.span, using: &rng))
            let expected = Expected(type: kind.identifier, start: start, end: end,
                                    value: Int.random(in: kind.values, using: &rng), unit: kind.unit,
                                    source: ["hkctl", "Phone", "Watch"].randomElement(using: &rng)!)
            model[uuid] = expected
            let fields: [(String, String)] = [
                ("uuid", "\"\(uuid)\""), ("type", "\"\(expected.type)\""), ("start", "\"\(start)\""),
                ("end", "\"\(end)\""), ("value", "\(expected.value)"), ("unit", "\"\(expected.unit)\""),
                ("source", "\"\(expected.source)\""), ("created", "\"\(start)\""),
            ]
            lines.append(shapes ? reshape(fields) : Run.join(fields, spaced: false))
        }
        return lines
    }

    static func join(_ fields: [(String, String)], spaced: Bool) -> String {
        let separator = spaced ? " , " : ","
        let colon = spaced ? " : " : ":"
        return (spaced ? "{ " : "{") + fields.map { "\"\($0.0)\"\(colon)\($0.1)" }.joined(separator: separator)
            + (spaced ? " }" : "}")
    }

    /// The fields in one of several shapes: as written, keys shuffled, the uuid in upper case, spaced out.
    func reshape(_ fields: [(String, String)]) -> String {
        var fields = fields
        let shape = Int.random(in: 0..<5, using: &rng)
        if shape == 1 || shape == 4 { fields.shuffle(using: &rng) }
        if shape == 2 || shape == 4 {
            fields = fields.map { $0.0 == "uuid" ? ($0.0, $0.1.uppercased()) : $0 }
        }
        return Run.join(fields, spaced: shape == 3 || (shape == 4 && Bool.random(using: &rng)))
    }

    func importLines(_ lines: [String]) throws {
        let result = try ok(["import", "-", "-q"], stdin: lines.joined(separator: "\n") + "\n", "(import)")
        #expect(result.stderr.isEmpty, "seed \(seed): import: \(result.stderr)")
        lastDeleted = nil
    }

    /// Rewrites every partition file's lines in random other shapes, keeping each line's fields and `seq`.
    ///
    /// - Returns: how many lines were written in another shape.
    func rewritePartitionsByHand() throws -> Int {
        var reshaped = 0
        let samples = cli.storePath + "/samples"
        for folder in IndependentTestKit.contents(of: samples) {
            for file in IndependentTestKit.contents(of: samples + "/" + folder)
            where file.hasSuffix(".jsonl") && file != "tombstones.jsonl" {
                let path = samples + "/" + folder + "/" + file
                let text = String(decoding: IndependentTestKit.bytes(path), as: UTF8.self)
                var out = ""
                for line in text.split(separator: "\n") {
                    guard let object = json(String(line), "a store line") as? [String: Any], Bool.random(using: &rng)
                          || Int.random(in: 0..<4, using: &rng) != 0 else {
                        out += line + "\n"
                        continue
                    }
                    let order = ["uuid", "type", "start", "end", "value", "unit", "source", "created", "seq"]
                    #expect(Set(object.keys) == Set(order), "seed \(seed): unexpected keys in \(line)")
                    let fields: [(String, String)] = order.compactMap { key in
                        guard let value = object[key] else { return nil }
                        if let string = value as? String { return (key, "\"\(string)\"") }
                        return (key, "\((value as! NSNumber).int64Value)")
                    }
                    var written = reshape(fields)
                    if written == Run.join(fields, spaced: false) {
                        // Shape 0 left it as it was: move seq to the front at least.
                        written = Run.join([fields.last!] + fields.dropLast(), spaced: false)
                    }
                    handWritten.insert((object["uuid"] as! String).lowercased())
                    out += written + "\n"
                    reshaped += 1
                }
                try IndependentTestKit.write(out, to: path)
            }
        }
        return reshaped
    }

    // MARK: Comparing with the model

    func listed(_ kind: Kind) -> [String: Expected]? {
        guard let result = try? hk(["list", kind.name, "--format", "json"]) else { return nil }
        guard result.status == 0, let array = json(result.stdout, "list \(kind.name)") as? [[String: Any]] else {
            Issue.record("seed \(seed): list \(kind.name) failed: \(result.status) \(result.stderr)")
            return nil
        }
        var samples: [String: Expected] = [:]
        for object in array {
            let uuid = object["uuid"] as? String ?? "?"
            #expect(uuid == uuid.lowercased(), "seed \(seed): list shows \(uuid) not in lower case")
            let expected = Expected(type: object["type"] as? String ?? "?", start: object["start"] as? String ?? "?",
                                    end: object["end"] as? String ?? "?",
                                    value: Int((object["value"] as? NSNumber)?.doubleValue ?? -1),
                                    unit: object["unit"] as? String ?? "?", source: object["source"] as? String ?? "?")
            #expect(samples[uuid.lowercased()] == nil, "seed \(seed): list \(kind.name) shows \(uuid) twice")
            samples[uuid.lowercased()] = expected
            // The sample a correction names (the first of its chain): as this test predicted it (its edits, and an
            // undo's restored copies of deleted samples, which keep their metadata), and, for a sample whose uuid it
            // could not predict (what an undo of an edit restores), as listed.
            let first = (object["metadata"] as? [String: Any])?["@corrects"] as? String
            if corrects[uuid] != nil || predicted.contains(uuid) {
                expectEqual(first, corrects[uuid], "seed \(seed): \(uuid) lists another corrected sample")
            } else if let first {
                corrects[uuid] = first
            }
        }
        return samples
    }

    func expectListsMatchModel(_ when: String, kinds: [Kind] = Run.kinds) {
        for kind in kinds {
            guard let shown = listed(kind) else { continue }
            let expected = model.filter { $0.value.type == kind.identifier }
            if shown != expected {
                let missing = expected.keys.filter { shown[$0] != expected[$0] }.sorted().prefix(5)
                let extra = shown.keys.filter { expected[$0] != shown[$0] }.sorted().prefix(5)
                let message = "seed \(seed): list \(kind.name) \(when): \(shown.count) samples, model \(expected.count); "
                    + "missing or different \(Array(missing)), unexpected or different \(Array(extra))"
                Issue.record(Comment(rawValue: message))
            }
        }
    }

    func kind(of uuid: String) -> Kind? {
        guard let type = model[uuid]?.type else { return nil }
        return Run.kinds.first { $0.identifier == type }
    }

    // MARK: Look-ups

    /// How a user might type the first `length` hex digits of `uuid`: with or without its dashes, in either case.
    func prefixSpelling(of uuid: String, length: Int) -> String {
        let digits = String(Run.hexDigits(uuid).prefix(length))
        var spelled = digits
        if Bool.random(using: &rng), length == 32 {
            spelled = Run.dashed(digits)
        } else if Bool.random(using: &rng) {
            // Dashes where the uuid has them, as far as the prefix goes.
            spelled = String(Run.dashed(Run.hexDigits(uuid)).prefix(length + [8, 12, 16, 20].filter { $0 < length }.count))
        }
        return Bool.random(using: &rng) ? spelled.uppercased() : spelled
    }

    /// Live uuids whose hex digits start with the hex digits of `prefix`.
    func matches(_ prefix: String) -> [String] {
        let digits = Run.hexDigits(prefix)
        return model.keys.filter { Run.hexDigits($0).hasPrefix(digits) }
    }

    func deleteExpectingSuccess(_ uuids: [String], shown: [String]) throws {
        let before = uuids.compactMap { kind(of: $0) }
        let result = try ok(["delete"] + shown + ["--yes"], "(deleting \(uuids))")
        if result.status == 0 {
            var removed: [String: Expected] = [:]
            for uuid in uuids { removed[uuid] = model.removeValue(forKey: uuid) }
            lastDeleted = removed
        }
        expectListsMatchModel("after delete \(shown)", kinds: before)
    }

    /// Deletes (or edits, at random) by a prefix of `uuid`: a unique one must act on that sample, an ambiguous one
    /// must be refused (exit 64) naming every candidate and change nothing.
    func deleteOrEditByPrefix(of uuid: String) throws {
        let length = Int.random(in: 8...14, using: &rng)
        let prefix = prefixSpelling(of: uuid, length: length)
        let candidates = matches(prefix)
        if candidates.count == 1 {
            if Bool.random(using: &rng) {
                try deleteExpectingSuccess([uuid], shown: [prefix])
            } else {
                try edit(uuid, spelled: prefix)
            }
        } else {
            let before = cli.snapshot()
            let value = "\(model[uuid]!.value + 1)\(kind(of: uuid)!.unit == "count/min" ? "bpm" : kind(of: uuid)!.unit)"
            let result = try hk(Bool.random(using: &rng) ? ["delete", prefix, "--yes"] : ["edit", prefix, value])
            expectEqual(result.status, 64, "seed \(seed): ambiguous prefix \(prefix) of \(candidates): \(result.stderr)")
            for candidate in candidates {
                #expect(result.stderr.contains(candidate),
                        "seed \(seed): the refusal of \(prefix) does not name \(candidate): \(result.stderr)")
            }
            #expect(cli.snapshot() == before, "seed \(seed): the refused \(prefix) changed the store")
        }
    }

    /// Edits the sample `uuid` (typed as `spelled`) to a new value; the model swaps it for the corrected sample.
    func edit(_ uuid: String, spelled: String) throws {
        guard let old = model[uuid], let kind = kind(of: uuid) else { return }
        var value = old.value
        while value == old.value { value = Int.random(in: kind.values, using: &rng) }
        let result = try ok(["edit", spelled, "\(value)\(kind.unit == "count/min" ? "bpm" : kind.unit)",
                             "--format", "json"], "(editing \(uuid) to \(value))")
        guard result.status == 0, let object = json(result.stdout, "edit's answer") as? [String: Any],
              let new = object["uuid"] as? String else { return }
        #expect(new != uuid && model[new] == nil, "seed \(seed): edit of \(uuid) answered uuid \(new)")
        #expect((object["metadata"] as? [String: Any])?["@corrects"] as? String == corrects[uuid] ?? uuid,
                "seed \(seed): edit's answer does not name \(corrects[uuid] ?? uuid) as corrected: \(result.stdout)")
        corrects[new] = corrects[uuid] ?? uuid
        model[uuid] = nil
        var corrected = old
        corrected.value = value
        model[new] = corrected
        everSeen.insert(new)
        lastDeleted = nil
        expectListsMatchModel("after edit \(spelled)", kinds: [kind])
    }

    /// Undoes the last operation; after a delete, the deleted samples come back under new uuids.
    func undo() throws {
        let result = try ok(["undo", "--yes", "-q"], "(undo)")
        guard result.status == 0 else { return }
        guard let restored = lastDeleted else {
            // Not a delete (an edit, an add, an import): read the model back from list.
            resyncModel()
            return
        }
        lastDeleted = nil
        var back: [String: Expected] = [:]
        for kind in Run.kinds { for (uuid, sample) in listed(kind) ?? [:] where model[uuid] == nil { back[uuid] = sample } }
        expectEqual(back.values.map(\.description).sorted(), restored.values.map(\.description).sorted(),
                    "seed \(seed): undo of a delete brought back something else")
        for uuid in back.keys {
            #expect(!restored.keys.contains(uuid), "seed \(seed): undo restored \(uuid) under its old uuid")
            everSeen.insert(uuid)
        }
        // Each restored copy keeps the metadata of the sample it restores, so it corrects what that one corrected
        // (nothing, for an original): predicted where one deleted sample alone looks like the copy.
        for (uuid, sample) in back {
            let originals = restored.filter { $0.value.description == sample.description }
            guard originals.count == 1, back.values.filter({ $0.description == sample.description }).count == 1,
                  let original = originals.first?.key else { continue }
            corrects[uuid] = corrects[original]
            predicted.insert(uuid)
        }
        model.merge(back) { $1 }
        expectListsMatchModel("after undo")
    }

    /// Takes the model from `list` (after an operation whose new uuids the test cannot predict).
    func resyncModel() {
        var fresh: [String: Expected] = [:]
        for kind in Run.kinds { fresh.merge(listed(kind) ?? [:]) { $1 } }
        model = fresh
        everSeen.formUnion(fresh.keys)
    }

    /// One random look-up: delete by uuid (either case), by prefix, several at once, an unknown or deleted uuid,
    /// an edit, or an undo right after a delete.
    func randomLookupStep(_ step: Int) throws {
        let live = model.keys.sorted()
        guard let target = live.randomElement(using: &rng) else { return }
        switch Int.random(in: 0..<9, using: &rng) {
        case 0, 1:
            try deleteExpectingSuccess([target], shown: [Bool.random(using: &rng) ? target : target.uppercased()])
        case 2, 3:
            try deleteOrEditByPrefix(of: target)
        case 4:
            let others = Array(live.shuffled(using: &rng).prefix(Int.random(in: 2...4, using: &rng)))
            try deleteExpectingSuccess(others, shown: others)
        case 5:
            // An unknown uuid, or one already deleted or edited away: exit 66, nothing changes.
            let gone = everSeen.subtracting(model.keys).sorted()
            let uuid = Bool.random(using: &rng) ? (gone.randomElement(using: &rng) ?? randomUUID()) : randomUUID()
            guard model[uuid] == nil else { return }
            let before = cli.snapshot()
            let result = try hk(Bool.random(using: &rng) ? ["delete", uuid, "--yes"] : ["edit", uuid, "5"])
            expectEqual(result.status, 66, "seed \(seed): step \(step): \(uuid) is no sample: \(result.stderr)")
            #expect(cli.snapshot() == before, "seed \(seed): step \(step): a refused \(uuid) changed the store")
        case 6, 7:
            var spelled = target
            if Bool.random(using: &rng) {
                // The shortest prefix of 8 digits or more that is unique (the whole uuid when none is).
                for length in 8...32 where matches(String(Run.hexDigits(target).prefix(length))).count == 1 {
                    spelled = prefixSpelling(of: target, length: length)
                    break
                }
            }
            try edit(target, spelled: spelled)
        default:
            if lastDeleted != nil { try undo() } else { try deleteOrEditByPrefix(of: target) }
        }
    }

    // MARK: Paging

    struct Answer {
        var added: [String], deleted: [String], anchor: String
        var addedUUIDs: [String], deletedUUIDs: [String]
    }

    /// One JSON object per element, keys sorted, so two answers compare exactly.
    func canonical(_ objects: Any?) -> [String] {
        ((objects as? [Any]) ?? []).map {
            String(decoding: (try? JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys])) ?? Data(),
                   as: UTF8.self)
        }
    }

    func changes(since anchor: String?, limit: Int?, type: String? = nil) throws -> (CLIResult, Answer?) {
        var arguments = ["changes", "--format", "json"]
        if let anchor { arguments += ["--since", anchor] }
        if let limit { arguments += ["--limit", "\(limit)"] }
        if let type { arguments += ["--type", type] }
        let result = try hk(arguments)
        guard result.status == 0 else { return (result, nil) }
        guard let object = json(result.stdout, arguments.joined(separator: " ")) as? [String: Any],
              let anchor = object["anchor"] as? String else {
            Issue.record("seed \(seed): \(arguments.joined(separator: " ")) has no anchor: \(result.stdout.prefix(300))")
            return (result, nil)
        }
        let uuids = { (key: String) in ((object[key] as? [[String: Any]]) ?? []).map { $0["uuid"] as? String ?? "?" } }
        anchors.append(anchor)
        return (result, Answer(added: canonical(object["added"]), deleted: canonical(object["deleted"]), anchor: anchor,
                               addedUUIDs: uuids("added"), deletedUUIDs: uuids("deleted")))
    }

    /// Pages through `changes --limit limit` from `since`; nil when a page failed.
    func paged(since start: String?, limit: Int, type: String? = nil, _ phase: String) throws -> Answer? {
        var total = Answer(added: [], deleted: [], anchor: start ?? "", addedUUIDs: [], deletedUUIDs: [])
        var anchor = start
        for _ in 0..<5_000 {
            let (result, page) = try changes(since: anchor, limit: limit, type: type)
            guard let page else {
                let message = "seed \(seed): \(phase): a page of \(limit) since \(anchor ?? "the start") failed: "
                    + "\(result.status) \(result.stderr)"
                Issue.record(Comment(rawValue: message))
                return nil
            }
            let count = page.added.count + page.deleted.count
            #expect(count <= limit, "seed \(seed): \(phase): a page of --limit \(limit) holds \(count) changes")
            total.anchor = page.anchor
            if count == 0 { return total }
            #expect(page.anchor != anchor, "seed \(seed): \(phase): a page of \(count) changes kept the anchor \(page.anchor)")
            total.added += page.added
            total.deleted += page.deleted
            total.addedUUIDs += page.addedUUIDs
            total.deletedUUIDs += page.deletedUUIDs
            anchor = page.anchor
        }
        Issue.record("seed \(seed): \(phase): paging with --limit \(limit) did not end")
        return nil
    }

    func compare(_ pages: Answer, _ whole: Answer, _ what: String) {
        expectEqual(pages.addedUUIDs, whole.addedUUIDs, "seed \(seed): \(what): added uuids")
        expectEqual(pages.deletedUUIDs, whole.deletedUUIDs, "seed \(seed): \(what): deleted uuids")
        if pages.addedUUIDs == whole.addedUUIDs {
            expectEqual(pages.added, whole.added, "seed \(seed): \(what): added samples")
        }
        if pages.deletedUUIDs == whole.deletedUUIDs {
            expectEqual(pages.deleted, whole.deleted, "seed \(seed): \(what): deleted entries")
        }
        expectEqual(pages.anchor, whole.anchor, "seed \(seed): \(what): the anchor after the last page")
    }

    /// The whole answer agrees with `list`, and pages of each limit (and a random one) from the start, from an
    /// earlier anchor and of one type give exactly it.
    func expectPagingMatchesWhole(limits: [Int], phase: String) throws {
        let earlier = anchors
        let (result, whole) = try changes(since: nil, limit: nil)
        guard let whole else {
            Issue.record("seed \(seed): \(phase): changes failed: \(result.status) \(result.stderr)")
            return
        }
        expectEqual(Set(whole.addedUUIDs), Set(model.keys), "seed \(seed): \(phase): changes' added against the model")
        expectEqual(whole.addedUUIDs.count, Set(whole.addedUUIDs).count, "seed \(seed): \(phase): a uuid added twice")
        #expect(Set(whole.addedUUIDs).isDisjoint(with: whole.deletedUUIDs),
                "seed \(seed): \(phase): a uuid both added and deleted")
        for limit in limits + [Int.random(in: 3...20, using: &rng)] {
            if let pages = try paged(since: nil, limit: limit, phase) {
                compare(pages, whole, "\(phase), --limit \(limit) from the start")
            }
        }
        // From an anchor handed out earlier (a whole answer's or a page's): the same as the whole answer since it,
        // or refused alike.
        for anchor in earlier.shuffled(using: &rng).prefix(2) {
            let limit = [1, 2, 7, 50].randomElement(using: &rng)!
            let (wholeResult, sinceWhole) = try changes(since: anchor, limit: nil)
            if let sinceWhole {
                if let pages = try paged(since: anchor, limit: limit, phase) {
                    compare(pages, sinceWhole, "\(phase), --limit \(limit) since \(anchor)")
                }
            } else {
                let (pageResult, _) = try changes(since: anchor, limit: limit)
                expectEqual(pageResult.status, wholeResult.status,
                            "seed \(seed): \(phase): since \(anchor) whole \(wholeResult.stderr) page \(pageResult.stderr)")
            }
        }
        // One type.
        let kind = Run.kinds.randomElement(using: &rng)!
        if let typeWhole = try changes(since: nil, limit: nil, type: kind.name).1,
           let pages = try paged(since: nil, limit: Int.random(in: 1...4, using: &rng), type: kind.name, phase) {
            compare(pages, typeWhole, "\(phase), --type \(kind.name)")
            expectEqual(Set(typeWhole.addedUUIDs), Set(model.filter { $0.value.type == kind.identifier }.keys),
                        "seed \(seed): \(phase): changes --type \(kind.name) against the model")
        }
    }

    /// Anchors older than what `compact --retention 0` dropped: a page and a whole answer treat each alike.
    func expectOldAnchorsRefusedAlike(_ old: [String]) throws {
        for anchor in old.shuffled(using: &rng).prefix(4) {
            let (whole, _) = try changes(since: anchor, limit: nil)
            let (page, _) = try changes(since: anchor, limit: [1, 7].randomElement(using: &rng)!)
            let message = "seed \(seed): since \(anchor) after compact: whole \(whole.status) \(whole.stderr), "
                + "page \(page.status) \(page.stderr)"
            expectEqual(page.status, whole.status, Comment(rawValue: message))
        }
    }

    // MARK: Writes

    func compact() throws {
        now += 1
        try ok(["compact", "--retention", "0", "-q"], "(compact)")
        lastDeleted = nil
        // Every tombstone is dropped: the whole answer from the start lists no deletion.
        if let whole = try changes(since: nil, limit: nil).1 {
            expectEqual(whole.deletedUUIDs, [], "seed \(seed): deletions listed after compact --retention 0")
        }
    }

    /// Deletes one type's samples over a random week.
    func deleteRange() throws {
        let kind = Run.kinds.filter { $0.span == 0...0 }.randomElement(using: &rng)!  // no sample across the range's ends
        let day = Int.random(in: 0..<80, using: &rng)
        let from = String(time(minute: day * 1440).prefix(10)), to = String(time(minute: (day + 6) * 1440).prefix(10))
        let result = try ok(["delete", kind.name, "--from", from, "--to", to, "--yes", "-q"], "(range delete)")
        guard result.status == 0 else { return }
        var removed: [String: Expected] = [:]
        for (uuid, sample) in model where sample.type == kind.identifier && sample.start >= from
            && sample.start < time(minute: (day + 7) * 1440) {
            removed[uuid] = model.removeValue(forKey: uuid)
        }
        lastDeleted = removed
        expectListsMatchModel("after delete \(kind.name) --from \(from) --to \(to)", kinds: [kind])
    }

    /// A random write: a delete by uuid or prefix, an edit, or an add.
    func randomMutation(_ step: Int) throws {
        switch Int.random(in: 0..<5, using: &rng) {
        case 0:
            let value = Int.random(in: 100...900, using: &rng)
            nextMinute += 97
            let at = time(minute: nextMinute % (85 * 1440))
            let result = try ok(["add", "water", "\(value)mL", "--at", at, "--format", "json"], "(add)")
            if let object = json(result.stdout, "add's answer") as? [String: Any], let uuid = object["uuid"] as? String {
                model[uuid] = Expected(type: "HKQuantityTypeIdentifierDietaryWater", start: at, end: at, value: value,
                                       unit: "mL", source: "hkctl")
                everSeen.insert(uuid)
            }
            lastDeleted = nil
        default:
            try randomLookupStep(step)
        }
    }
}

/// The checks ``UUIDLookupAndPagingIndependentTests/checks(_:)`` runs.
private let uUIDLookupAndPagingIndependentTestsChecks: [Check<UUIDLookupAndPagingIndependentTests>] = [
    Check("randomDeletesAndEditsByUUIDAndPrefixFollowTheModel",
          UUIDLookupAndPagingIndependentTests.randomDeletesAndEditsByUUIDAndPrefixFollowTheModel),
    Check("handWrittenLinesAreFoundByUUIDPrefixAndChangesPages",
          UUIDLookupAndPagingIndependentTests.handWrittenLinesAreFoundByUUIDPrefixAndChangesPages),
    Check("pagesOfChangesEqualTheWholeAnswerThroughDeletesUndoAndCompact",
          UUIDLookupAndPagingIndependentTests.pagesOfChangesEqualTheWholeAnswerThroughDeletesUndoAndCompact),
]
