import Foundation

/// What storing a payload's samples does, decided against the samples already stored (a pure function: the store
/// runs it under its write lock, so the check and the write are one step).
///
/// For each candidate, in this order:
/// 1. **Covered**: the store holds samples of the same type and a related source that did not come from Health Auto
///    Export (an Apple Health export; not one typed in with hkctl as its owner, source `hkctl`, which HAE's figures
///    never include) reaching the end of the candidate's period (``HAECoverage``): the candidate is not written. The
///    stored samples are the finer truth (an HAE day total is HealthKit's sum of them), so nothing counts twice.
///    Where they overlap it but end within it, a cumulative candidate goes on as its remainder beyond them.
/// 2. **Unchanged**: a stored HAE sample with the same sync identifier, type and a related source (the same, or
///    sharing one of the `|`-separated names: a day's total whose sources grew is the same point) holds the same
///    value, times, source and metadata (`HAEReceivedThrough` aside): nothing is written.
/// 3. **Replaced**: it differs: the stored ones (with a correlation's members) are deleted and the candidate is
///    written with `HKMetadataKeySyncVersion` one above theirs, in the same write.
/// 4. **Added** (or kept, for an untyped sample): nothing stored matches; written with version 1.
///
/// Before 2 to 4, stored HAE samples of the same type and a related source that cover the candidate's time in another
/// form (``form(of:)``: per hour where it is per day, per stage where it is per night) are deleted: the same time sent
/// in two forms would count twice. The candidate then counts as replaced.
struct HAEWritePlan {
    enum Outcome: Equatable { case added, replaced, unchanged, covered }

    /// The samples to write (a correlation's members before it).
    var writes: [Sample] = []
    /// The stored samples to delete first.
    var deletes: [(uuid: UUID, type: String, source: String)] = []
    /// One outcome per candidate, in order.
    var outcomes: [Outcome] = []

    static func plan(_ candidates: [HAECandidate], stored: [Sample], cumulative: (String) -> Bool = { _ in false }) -> HAEWritePlan {
        var plan = HAEWritePlan()
        var ours: [String: [Sample]] = [:]
        var others: [String: [Sample]] = [:]
        var longest: [String: TimeInterval] = [:]
        var byUUID: [UUID: Sample] = [:]
        var otherForm: [String: [Sample]] = [:]
        var longestForm: [String: TimeInterval] = [:]
        for sample in stored {
            if sample.metadata[HAESampleBuilder.aggregationKey] != nil, case let .string(identifier)? = sample.metadata[MetadataKeySyncIdentifier] {
                ours[sample.typeIdentifier + "\n" + identifier, default: []].append(sample)
                byUUID[sample.uuid] = sample
                if HAEWritePlan.form(of: sample) != nil {
                    otherForm[sample.typeIdentifier, default: []].append(sample)
                    longestForm[sample.typeIdentifier] = max(longestForm[sample.typeIdentifier] ?? 0, sample.duration)
                }
            } else if HAEWritePlan.isFromHealthKit(sample) {
                others[sample.typeIdentifier, default: []].append(sample)
                longest[sample.typeIdentifier] = max(longest[sample.typeIdentifier] ?? 0, sample.duration)
            }
        }
        for key in others.keys { others[key]!.sort { $0.start < $1.start } }
        for key in otherForm.keys { otherForm[key]!.sort { $0.start < $1.start } }
        var deleted = Set<UUID>()
        for candidate in candidates {
            var sample = candidate.sample
            if let list = others[sample.typeIdentifier] {
                switch HAECoverage.of(sample, by: list, longest: longest[sample.typeIdentifier] ?? 0,
                                      cumulative: candidate.members.isEmpty && cumulative(sample.typeIdentifier)) {
                case .covered:
                    plan.outcomes.append(.covered)
                    continue
                case let .remainder(kept): sample = kept
                case .none: break
                }
            }
            let matches = (ours.isEmpty ? [] : ours[sample.typeIdentifier + "\n" + candidate.syncIdentifier] ?? []).filter {
                !deleted.contains($0.uuid) && HAEWritePlan.related($0.source, sample.source)
            }
            // The same time sent in another form (per day after per hour, per night after per stage): the stored
            // form goes, or both would count.
            var crossed: [Sample] = []
            if let form = HAEWritePlan.form(of: sample), let list = otherForm[sample.typeIdentifier] {
                crossed = HAEWritePlan.overlapping(sample, in: list, longest: longestForm[sample.typeIdentifier] ?? 0).filter {
                    !deleted.contains($0.uuid) && HAEWritePlan.form(of: $0) != form
                        && (sample.typeIdentifier == HAESleep.type || HAEWritePlan.related($0.source, sample.source))
                }
            }
            for old in crossed where deleted.insert(old.uuid).inserted {
                plan.deletes.append((old.uuid, old.typeIdentifier, old.source))
                for member in old.detail?.correlation?.members ?? [] where deleted.insert(member.uuid).inserted {
                    if let stored = byUUID[member.uuid] { plan.deletes.append((stored.uuid, stored.typeIdentifier, stored.source)) }
                }
            }
            let storedMembers = matches.flatMap { $0.detail?.correlation?.members.compactMap { byUUID[$0.uuid] } ?? [] }
            if matches.count == 1, same(matches[0], sample), storedMembers.count == candidate.members.count,
               zip(storedMembers.sorted { $0.typeIdentifier < $1.typeIdentifier },
                   candidate.members.sorted { $0.typeIdentifier < $1.typeIdentifier }).allSatisfy(same) {
                plan.outcomes.append(crossed.isEmpty ? .unchanged : .replaced)
                continue
            }
            let version = (matches.compactMap { SyncReplacement.storedMark(of: $0)?.version }.max() ?? 0) + 1
            for old in matches + storedMembers where deleted.insert(old.uuid).inserted {
                plan.deletes.append((old.uuid, old.typeIdentifier, old.source))
            }
            for var member in candidate.members {
                member.metadata[MetadataKeySyncVersion] = .number(version)
                plan.writes.append(member)
            }
            var written = sample
            written.metadata[MetadataKeySyncVersion] = .number(version)
            plan.writes.append(written)
            plan.outcomes.append(matches.isEmpty && crossed.isEmpty ? .added : .replaced)
        }
        return plan
    }

    /// Whether a stored sample that is not HAE's can be part of HAE's figures: anything but what hkctl's owner typed
    /// in (source `hkctl`), which never reached HealthKit on the phone.
    static func isFromHealthKit(_ sample: Sample) -> Bool { sample.source != AuthorizationState.ownerSource }

    /// Whether two source names are the same source for a point: equal, or sharing one of their `|`-separated names.
    static func related(_ a: String, _ b: String) -> Bool {
        if a == b { return true }
        guard a.contains("|") || b.contains("|") else { return false }
        let names = Set(a.split(separator: "|"))
        return b.split(separator: "|").contains { names.contains($0) }
    }

    /// Whether a stored sample is what the candidate would write (its sync version, and the program it came
    /// through, aside: the same figures pushed after a file was imported are unchanged).
    static func same(_ stored: Sample, _ candidate: Sample) -> Bool {
        guard stored.start == candidate.start, stored.end == candidate.end, stored.source == candidate.source,
              stored.value == candidate.value else { return false }
        // A workout's totals, statistics and route live in its detail (a correlation's detail names member UUIDs,
        // compared through the members instead).
        if case .workout? = candidate.detail, stored.detail != candidate.detail { return false }
        var metadata = stored.metadata, wanted = candidate.metadata
        metadata[MetadataKeySyncVersion] = nil
        metadata[HAESampleBuilder.receivedThroughKey] = nil
        wanted[HAESampleBuilder.receivedThroughKey] = nil
        return metadata == wanted
    }

    /// The form of an HAE sample among those that can stand for the same time differently: its aggregation
    /// (minute, hour, day, week), or for sleep per stage (`none`) or per night; nil for an unaggregated reading of
    /// another type (readings at their own times never stand for each other).
    static func form(of sample: Sample) -> String? {
        guard case let .string(form)? = sample.metadata[HAESampleBuilder.aggregationKey] else { return nil }
        if sample.typeIdentifier == HAESleep.type { return form == "night" ? "night" : "stage" }
        return form == "none" ? nil : form
    }

    /// The samples of `list` (sorted by start; `longest` is the longest among them) that `sample` overlaps.
    static func overlapping(_ sample: Sample, in list: [Sample], longest: TimeInterval) -> [Sample] {
        var found: [Sample] = []
        let from = sample.start.addingTimeInterval(-longest)
        var low = 0, high = list.count
        while low < high {
            let middle = (low + high) / 2
            if list[middle].start < from { low = middle + 1 } else { high = middle }
        }
        var index = low
        while index < list.count, list[index].start <= sample.end {
            let other = list[index]
            if other.start < sample.end && sample.start < other.end { found.append(other) }
            index += 1
        }
        return found
    }

    /// The samples of `list` (sorted by start; `longest` is the longest among them) that share time with `sample`, or
    /// where an instant lies within the other (ends included).
    static func overlappingInstantsIncluded(_ sample: Sample, in list: [Sample], longest: TimeInterval) -> [Sample] {
        var found: [Sample] = []
        let from = sample.start.addingTimeInterval(-longest)
        var low = 0, high = list.count
        while low < high {
            let middle = (low + high) / 2
            if list[middle].start < from { low = middle + 1 } else { high = middle }
        }
        var index = low
        while index < list.count, list[index].start <= sample.end {
            let other = list[index]
            if sample.start == sample.end || other.start == other.end {
                if other.start <= sample.end && sample.start <= other.end { found.append(other) }
            } else if other.start < sample.end && sample.start < other.end {
                found.append(other)
            }
            index += 1
        }
        return found
    }

    /// Whether `sample` overlaps one of `list` (sorted by start; `longest` is the longest duration among them): they
    /// share time, or an instant lies within the other (ends included).
    static func overlaps(_ sample: Sample, in list: [Sample], longest: TimeInterval) -> Bool {
        // The first that could reach the sample: starting no earlier than `longest` before it.
        let from = sample.start.addingTimeInterval(-longest)
        var low = 0, high = list.count
        while low < high {
            let middle = (low + high) / 2
            if list[middle].start < from { low = middle + 1 } else { high = middle }
        }
        var index = low
        while index < list.count, list[index].start <= sample.end {
            let other = list[index]
            if sample.start == sample.end || other.start == other.end {
                if other.start <= sample.end && sample.start <= other.end { return true }
            } else if other.start < sample.end && sample.start < other.end {
                return true
            }
            index += 1
        }
        return false
    }
}
