import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension JSONFileStore {
    /// Stores Health Auto Export samples by ``HAEWritePlan``: under the exclusive lock, reads the visible samples of
    /// their types around their times, plans, and writes the deletions and additions in one write (recorded as one
    /// operation; a ``OperationRecord/Kind/replace`` when it deletes, which `undo` takes back). With `dryRun`
    /// only plans.
    func storeHealthAutoExport(_ candidates: [HAECandidate], dryRun: Bool) throws -> HAEWritePlan {
        guard !candidates.isEmpty else { return HAEWritePlan() }
        var types = Set<String>()
        var earliest = Date.distantFuture, latest = Date.distantPast
        for candidate in candidates {
            for sample in [candidate.sample] + candidate.members {
                types.insert(sample.typeIdentifier)
                earliest = min(earliest, sample.start)
                latest = max(latest, sample.end)
            }
        }
        let interval = DateInterval(start: earliest, end: latest.addingTimeInterval(0.001))
        let plan = { () throws -> HAEWritePlan in
            var stored: [Sample] = []
            for type in types.sorted() {
                let deleted = try self.deletedUUIDs(ofType: type)
                for partition in try self.partitions(ofType: type, overlapping: interval) {
                    try self.readPartitionWithSequence(partition) { sample, sequence in
                        guard sample.end >= interval.start, sample.start <= interval.end,
                              !deleted.hides(sample, sequence: sequence) else { return }
                        stored.append(sample)
                    }
                }
            }
            return HAEWritePlan.plan(candidates, stored: stored)
        }
        if dryRun {
            guard try isExistingStore() else { return HAEWritePlan.plan(candidates, stored: []) }
            var result = HAEWritePlan()
            try withReadAccess { _ in result = try plan() }
            return result
        }
        return try withWriteAccess {
            let planned = try plan()
            guard !planned.writes.isEmpty || !planned.deletes.isEmpty else { return planned }
            for sample in planned.writes { try TextRules.check(sample) }
            _ = try writeChanges(deleting: planned.deletes, adding: planned.writes, now: clock(),
                                 record: planned.deletes.isEmpty ? recordMaker : replaceRecordMaker(replacing: planned.deletes.count))
            return planned
        }
    }
}

extension JSONFileStore {
    /// After an import of an Apple Health export: deletes the Health Auto Export samples of `types` whose time
    /// samples from elsewhere now cover (``HAEWritePlan``'s rule, the other way round), in one write recorded as a
    /// replacement that `undo` takes back with the import. Reads only the partitions of those types that hold an
    /// HAE sample at all (a byte search per file before decoding).
    ///
    /// - Returns: How many samples were deleted.
    func supersedeHealthAutoExport(types: [String]) throws -> Int {
        guard !types.isEmpty, try isExistingStore() else { return 0 }
        let needle = Array(HAESampleBuilder.aggregationKey.utf8)
        let everything = DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd)
        return try withWriteAccess {
            var targets: [(uuid: UUID, type: String, source: String)] = []
            var members: [UUID: (type: String, source: String)] = [:]
            var memberTypes = Set<String>()
            for type in types.sorted() {
                let deleted = try deletedUUIDs(ofType: type)
                var ours: [Sample] = []
                for partition in try partitions(ofType: type, overlapping: everything) {
                    guard let bytes = try POSIXFile.readFile(try storeFile(partition)), JSONFileStore.find(needle, in: bytes) else { continue }
                    try readPartitionWithSequence(partition) { sample, sequence in
                        guard sample.metadata[HAESampleBuilder.aggregationKey] != nil, !deleted.hides(sample, sequence: sequence) else { return }
                        ours.append(sample)
                    }
                }
                guard !ours.isEmpty else { continue }
                let start = ours.map(\.start).min()!, end = ours.map(\.end).max()!
                var others: [Sample] = []
                var longest: TimeInterval = 0
                let span = DateInterval(start: start, end: end.addingTimeInterval(0.001))
                for partition in try partitions(ofType: type, overlapping: span) {
                    try readPartitionWithSequence(partition) { sample, sequence in
                        guard sample.metadata[HAESampleBuilder.aggregationKey] == nil, HAEWritePlan.isFromHealthKit(sample),
                              sample.end >= span.start, sample.start <= span.end,
                              !deleted.hides(sample, sequence: sequence) else { return }
                        others.append(sample)
                        longest = max(longest, sample.duration)
                    }
                }
                guard !others.isEmpty else { continue }
                others.sort { $0.start < $1.start }
                for sample in ours where HAEWritePlan.overlaps(sample, in: others, longest: longest) {
                    targets.append((sample.uuid, sample.typeIdentifier, sample.source))
                    for member in sample.detail?.correlation?.members ?? [] {
                        members[member.uuid] = (member.typeIdentifier, sample.source)
                        memberTypes.insert(member.typeIdentifier)
                    }
                }
            }
            let chosen = Set(targets.map(\.uuid))
            for (uuid, member) in members where !chosen.contains(uuid) {
                targets.append((uuid, member.type, member.source))
            }
            guard !targets.isEmpty else { return 0 }
            _ = try writeChanges(deleting: targets, adding: [], now: clock(), record: replaceRecordMaker(replacing: targets.count))
            return targets.count
        }
    }

    /// Whether `needle` occurs in `bytes` (memchr for its first byte, then memcmp).
    static func find(_ needle: [UInt8], in bytes: [UInt8]) -> Bool {
        guard let first = needle.first else { return true }
        return bytes.withUnsafeBufferPointer { haystack in
            needle.withUnsafeBufferPointer { wanted in
                guard let base = haystack.baseAddress, haystack.count >= wanted.count else { return false }
                var index = 0
                let last = haystack.count - wanted.count
                while index <= last {
                    guard let found = memchr(base + index, Int32(first), last - index + 1) else { return false }
                    index = UnsafeRawPointer(found).assumingMemoryBound(to: UInt8.self) - base
                    if memcmp(base + index, wanted.baseAddress!, wanted.count) == 0 { return true }
                    index += 1
                }
                return false
            }
        }
    }
}
