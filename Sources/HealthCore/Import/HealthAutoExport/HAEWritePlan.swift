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
///    written with `HKMetadataKeySyncVersion` one above theirs, in the same write. A stored sample of the candidate's
///    ``HAECandidate/former`` type and identifier (the element as an earlier version kept it untyped) is replaced too.
/// 4. **Added** (or kept, for an untyped sample): nothing stored matches; written with version 1.
///
/// A candidate that later points of its input take away gives way to them when they are stored as sent (an import of
/// the same folder again): not written, counted unchanged (``HAEGivingWay``). Points of one type and form that overlap
/// each other in the batch meet as stored points do, the later holding their shared time (``HAEOverlapsInBatch``).
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
    /// The pieces of each stored point held as several (``HAEPieces``), by the uuid the plan knows it by.
    private var pieces: [UUID: [Sample]] = [:]

    /// A point's identity among the samples of a plan: its type and sync identifier, hashed as a pair (joining them
    /// into one string for every look-up was a tenth of a push's instructions).
    struct PointKey: Hashable {
        let type: String
        let identifier: String
        init(_ type: String, _ identifier: String) {
            self.type = type
            self.identifier = identifier
        }
    }

    /// The samples this plan writes that a later sending of their point in the batch can meet (``plan(_:stored:payloadForms:cumulative:)``).
    private var fresh = Set<UUID>()
    /// Those of them a later sending replaced: not written after all.
    private var retracted = Set<UUID>()

    /// Deletes a stored sample: each of its pieces when it is a rest held as several. One this plan was to write is
    /// not written instead.
    private mutating func delete(_ sample: Sample) {
        if fresh.contains(sample.uuid) {
            retracted.insert(sample.uuid)
            return
        }
        for part in pieces[sample.uuid] ?? [sample] { deletes.append((part.uuid, part.typeIdentifier, part.source)) }
    }

    /// - Parameter payloadForms: Per type, the forms its points take in the whole payload the batch comes from
    ///   (``HealthAutoExportPayload/forms``), beside those of the batch: forms a payload holds side by side never cross.
    ///   `payloadSleep`: the whole payload's sleep (``HAEPayloadSleep``), which the rules between stages and summaries
    ///   read instead of the batch's.
    static func plan(_ candidates: [HAECandidate], stored storedPieces: [Sample], payloadForms: [String: Set<String>] = [:],
                     payloadSleep: HAEPayloadSleep? = nil, cumulative: (String) -> Bool = { _ in false }) -> HAEWritePlan {
        var plan = HAEWritePlan()
        // A rest held as pieces is seen as the one point it is, and deleted whole.
        let (stored, pieces) = HAEPieces.group(storedPieces)
        plan.pieces = pieces
        var ours: [PointKey: [Sample]] = [:]
        // The points whose extra samples (`|min`, `|max` of heart rate) are stored: only theirs are looked for below.
        var withParts = Set<PointKey>()
        var others: [String: [Sample]] = [:]
        var longest: [String: TimeInterval] = [:]
        var byUUID: [UUID: Sample] = [:]
        var otherForm: [String: [Sample]] = [:]
        var longestForm: [String: TimeInterval] = [:]
        for sample in stored {
            if sample.metadata[HAESampleBuilder.aggregationKey] != nil, case let .string(identifier)? = sample.metadata[MetadataKeySyncIdentifier] {
                ours[PointKey(sample.typeIdentifier, identifier), default: []].append(sample)
                if let point = HAEWritePlan.pointOfPart(type: sample.typeIdentifier, identifier: identifier) {
                    withParts.insert(PointKey(sample.typeIdentifier, point))
                }
                byUUID[sample.uuid] = sample
                if HAEWritePlan.form(of: sample) != nil {
                    // Over its whole period: a remainder that starts after the finer points beginning its period
                    // still meets a re-send of one of them.
                    let whole = HAEWritePlan.overItsPeriod(sample)
                    otherForm[sample.typeIdentifier, default: []].append(whole)
                    longestForm[sample.typeIdentifier] = max(longestForm[sample.typeIdentifier] ?? 0, whole.duration)
                }
            } else if HAEWritePlan.isFromHealthKit(sample) {
                others[sample.typeIdentifier, default: []].append(sample)
                longest[sample.typeIdentifier] = max(longest[sample.typeIdentifier] ?? 0, sample.duration)
            }
        }
        for key in others.keys { others[key]!.sort { $0.start < $1.start } }
        for key in otherForm.keys { otherForm[key]!.sort { $0.start < $1.start } }
        var deleted = Set<UUID>()
        var heldNights: [String: Bool] = [:]
        // The batch's night summaries as it last sends them (``lastSendings(_:)``), found when a night first needs them.
        var nights: [String: [NightSending]]?
        var partial: [UUID: (sample: Sample, first: Int)] = [:]
        // A point sent twice in the batch (a re-send of the same time inside one file): each sending then meets the
        // ones written before it as if they were stored, as it would in a later batch, and what it replaces of them is
        // not written. Most batches hold every point once and skip this.
        var keys = Set<PointKey>(minimumCapacity: candidates.count)
        let repeats = !candidates.allSatisfy { keys.insert(PointKey($0.sample.typeIdentifier, $0.syncIdentifier)).inserted }
        // Sleep that meets itself in the batch (a night sent twice, from one source or two, or as stages and as its
        // summary): the sleep the batch writes is met by its later candidates as stored sleep is, so the night counts
        // once.
        let sleepForms = Set(candidates.lazy.filter { $0.sample.typeIdentifier == HAESleep.type }.compactMap { HAEWritePlan.form(of: $0.sample) })
        var nightPoints: [String: Int] = [:]
        let nightSentTwice = candidates.contains { candidate in
            guard HAEWritePlan.isNightPart(candidate), let night = HAEWritePlan.nightKey(candidate.sample) else { return false }
            if let point = nightPoints[night] { return point != candidate.point }
            nightPoints[night] = candidate.point
            return false
        }
        let sleepMeetsItself = repeats || sleepForms.count > 1 || nightSentTwice
        let stages = candidates.map(\.sample).filter { $0.typeIdentifier == HAESleep.type && HAEWritePlan.form(of: $0) == "stage" }
        // The forms each type takes in this payload: forms that a payload holds side by side (a minute-level payload's
        // readings with seconds beside its minutes) are both the app's, not a changed setting, so they never cross.
        var payloadForms = payloadForms
        for candidate in candidates where candidate.sample.typeIdentifier != HAESleep.type {
            if let form = HAEWritePlan.form(of: candidate.sample) { payloadForms[candidate.sample.typeIdentifier, default: []].insert(form) }
        }
        // Points of one type and form whose periods overlap in the batch (days at two offsets): each is met by the later
        // ones as a stored point is, as a batch per point would have it (``HAEOverlapsInBatch``).
        let meetingThemselves = HAEOverlapsInBatch(candidates).types
        // Where each of their points comes in the batch (by the uuid it is written or stored under): of two that overlap,
        // the later sending holds the time they share, whether it is written or found unchanged.
        var sentAt: [UUID: Int] = [:]
        let mainOfPart = HAEWritePlan.mainsOfParts(candidates)
        let storedPoints = PartedPoints(otherForm[HAEWritePlan.partedType] ?? [])
        // The night summary's sending under way (the index of its first candidate): its parts gone are dropped when
        // it ends.
        var sendingStart: Int?
        for candidate in candidates {
            let index = plan.outcomes.count
            if let start = sendingStart, !HAEWritePlan.sameNightSending(candidates[start], candidate) {
                plan.dropPartsGone(sending: candidates[start..<index], first: start, stored: otherForm, deleted: &deleted)
                sendingStart = nil
            }
            if sendingStart == nil, HAEWritePlan.isNightPart(candidate) { sendingStart = index }
            var sample = candidate.sample
            if let list = others[sample.typeIdentifier] {
                // A heart-rate point's `|min` and `|max` (candidates of their own, just before it, a millisecond each
                // at its start where no reading lies) follow their point: covered with it, else kept.
                let main = mainOfPart[index].map { candidates[$0] }
                switch HAECoverage.of(main?.sample ?? sample, by: list, longest: longest[sample.typeIdentifier] ?? 0,
                                      cumulative: (main ?? candidate).members.isEmpty && cumulative(sample.typeIdentifier)) {
                case .covered:
                    plan.outcomes.append(.covered)
                    continue
                case let .remainder(kept): if main == nil { sample = kept }
                case .none: break
                }
            }
            // A night the payload holds in both forms is the payload's in one of them (``HAEPayloadSleep``).
            if let payloadSleep, sample.typeIdentifier == HAESleep.type, payloadSleep.givesWay(sample) {
                plan.outcomes.append(.covered)
                continue
            }
            let key = PointKey(sample.typeIdentifier, candidate.syncIdentifier)
            var matches = (ours.isEmpty ? [] : ours[key] ?? []).filter {
                !deleted.contains($0.uuid) && HAEWritePlan.related($0.source, sample.source)
            }
            // The element as an earlier version stored it (untyped): the typed sample takes its place.
            if let former = candidate.former, !ours.isEmpty {
                matches += (ours[PointKey(former.type, former.syncIdentifier)] ?? []).filter {
                    !deleted.contains($0.uuid) && HAEWritePlan.related($0.source, sample.source)
                }
            }
            // A point's extra samples (`|min`, `|max` of heart rate) that the candidate's shape no longer has: a re-send
            // in the other shape replaces the point whole.
            // (A point sent with its figures comes with parts of its own, just before it, which meet the stored ones.)
            if withParts.contains(key), sample.metadata["HAEMin"] == nil {
                for part in ["|min", "|max"] {
                    let partKey = PointKey(sample.typeIdentifier, candidate.syncIdentifier + part)
                    matches += (ours[partKey] ?? []).filter {
                        !deleted.contains($0.uuid) && HAEWritePlan.related($0.source, sample.source)
                    }
                }
            }
            // The same time sent in another form (per day after per hour, per night after per stage): the stored
            // form goes, or both would count.
            var crossed: [Sample] = []
            if let form = HAEWritePlan.form(of: sample), let list = otherForm[sample.typeIdentifier] {
                crossed = HAEWritePlan.overlapping(sample, in: list, longest: longestForm[sample.typeIdentifier] ?? 0).filter {
                    !deleted.contains($0.uuid)
                        && (HAEWritePlan.form(of: $0).map { other in other != form && payloadForms[sample.typeIdentifier]?.contains(other) != true } == true
                            || HAEWritePlan.isMisaligned($0, with: sample, identifier: candidate.syncIdentifier))
                        && (sample.typeIdentifier == HAESleep.type || HAEWritePlan.related($0.source, sample.source))
                }
            }
            // The extra samples of a heart-rate point (an hour's `|min` and `|max`, a millisecond each at its start)
            // lie inside whatever covers its start (a finer point that starts with it, a point of its own form at
            // another alignment, a coarser one that ends inside it), but are the point's: they go with it
            // (``dropOrphanedParts``). Only an extra whose point is not stored is weighed on its own.
            if let form = HAEWritePlan.form(of: sample) {
                crossed.removeAll { old in
                    guard HAEWritePlan.isPart(old) else { return false }
                    return HAEWritePlan.level(of: old) > HAEWritePlan.level(form) || storedPoints.hasPoint(of: old)
                }
            }
            // A point that later points of the same input take away whole (``HAEGivingWay``), sent again while they
            // are stored as sent (an import of the same folder again), gives way to them: it replaces its earlier
            // sendings (those a later point of its own sync identifier meets are left to that one) and is not written.
            // Before they are stored (the first import) it is planned as any other, and they take it away in turn; so
            // it is where it meets a stored point of another form than theirs (a week it would settle, finer points it
            // would delete): those effects outlive it one file at a time.
            if !candidate.givesWayTo.isEmpty, HAEWritePlan.givesWay(candidate, crossed: crossed, isStoredAsSent: { later in
                guard case let .string(identifier)? = later.metadata[MetadataKeySyncIdentifier] else { return false }
                return (ours[PointKey(later.typeIdentifier, identifier)] ?? []).contains {
                    !deleted.contains($0.uuid) && HAEWritePlan.related($0.source, later.source)
                        && (same($0, later) || HAEWritePlan.isHeld(later, matches: [$0], finer: []))
                }
            }) {
                // (A heart-rate point's `|min` and `|max` go with their point.)
                let point = HAEWritePlan.pointOfPart(type: sample.typeIdentifier, identifier: candidate.syncIdentifier) ?? candidate.syncIdentifier
                let gone = matches.filter { old in
                    !candidate.givesWayTo.joined().contains { later in
                        later.metadata[MetadataKeySyncIdentifier] == .string(point) && HAEWritePlan.related(old.source, later.source)
                    }
                }
                let members = gone.flatMap { $0.detail?.correlation?.members.compactMap { byUUID[$0.uuid] } ?? [] }
                for old in gone + members where deleted.insert(old.uuid).inserted {
                    plan.delete(old)
                }
                plan.outcomes.append(gone.isEmpty ? .unchanged : .replaced)
                continue
            }
            if sample.typeIdentifier == HAESleep.type {
                // Stages where a night summary is stored: they replace the whole night (all its parts) where the
                // payload's stages span it; otherwise the summary holds their time (its parts' places are its own).
                if HAEWritePlan.form(of: sample) == "stage", crossed.contains(where: { HAEWritePlan.form(of: $0) == "night" }) {
                    let names = Set(crossed.compactMap(HAEWritePlan.nightKey))
                    let night = (otherForm[sample.typeIdentifier] ?? []).filter {
                        !deleted.contains($0.uuid) && HAEWritePlan.nightKey($0).map(names.contains) == true
                    }
                    let from = night.map(\.start).min() ?? sample.start, to = night.map(\.end).max() ?? sample.end
                    guard HAEWritePlan.stagesSpan(payloadSleep?.stages ?? stages, from: from, to: to) else {
                        plan.outcomes.append(.covered)
                        continue
                    }
                    crossed = crossed.filter { HAEWritePlan.form(of: $0) != "night" } + night
                }
            } else {
                // A stored point that reaches beyond the candidate (a day total where hours come): it goes only
                // where the payload's finer points cover all of its period; otherwise it waits for the pass after
                // the loop.
                // Against the sample's whole period: one an export cut to its part after the export's samples
                // still holds the days or hours of its period.
                let from = HAEWritePlan.periodStart(of: sample)
                let wider = crossed.filter { $0.start < from || $0.end > sample.end }
                for old in wider where !deleted.contains(old.uuid) && partial[old.uuid] == nil {
                    partial[old.uuid] = (old, plan.outcomes.count)
                }
                crossed.removeAll { $0.start < from || $0.end > sample.end }
            }
            // A night summary whose figures the stored stages of that night already give (a folder holding the night
            // per stage and as a summary): unchanged, the stages stay.
            if sample.typeIdentifier == HAESleep.type, HAEWritePlan.form(of: sample) == "night", !crossed.isEmpty,
               crossed.allSatisfy({ HAEWritePlan.form(of: $0) == "stage" }), let night = HAEWritePlan.nightKey(sample) {
                if nights == nil { nights = HAEWritePlan.lastSendings(candidates) }
                let held = heldNights[night] ?? HAEWritePlan.stagesHold(parts: (nights?[night] ?? []).flatMap { $0.parts.map(\.sample) },
                                                                        stored: (otherForm[HAESleep.type] ?? []).filter { !deleted.contains($0.uuid) })
                heldNights[night] = held
                if held {
                    plan.outcomes.append(.unchanged)
                    continue
                }
            }
            // A point the person corrected (`hkctl edit`: the stored sample names the one it corrects) stays as they
            // made it: sending the point again does not undo the correction.
            if crossed.isEmpty, matches.contains(where: { $0.metadata[Sample.correctsKey] != nil }) {
                if matches.count == 1, meetingThemselves.contains(sample.typeIdentifier) { sentAt[matches[0].uuid] = index }
                plan.outcomes.append(.unchanged)
                continue
            }
            // A figure the store already holds in another form (a folder with files of two aggregation settings,
            // imported again and again): unchanged, so an unchanged folder adds nothing and rewrites nothing.
            if candidate.members.isEmpty, cumulative(sample.typeIdentifier),
               HAEWritePlan.isHeld(sample, matches: matches, finer: crossed) {
                if matches.count == 1, meetingThemselves.contains(sample.typeIdentifier) { sentAt[matches[0].uuid] = index }
                plan.outcomes.append(.unchanged)
                continue
            }
            for old in crossed where deleted.insert(old.uuid).inserted {
                plan.delete(old)
                for member in old.detail?.correlation?.members ?? [] where deleted.insert(member.uuid).inserted {
                    if let stored = byUUID[member.uuid] { plan.deletes.append((stored.uuid, stored.typeIdentifier, stored.source)) }
                }
            }
            let storedMembers = matches.flatMap { $0.detail?.correlation?.members.compactMap { byUUID[$0.uuid] } ?? [] }
            if matches.count == 1, same(matches[0], sample), storedMembers.count == candidate.members.count,
               zip(storedMembers.sorted { $0.typeIdentifier < $1.typeIdentifier },
                   candidate.members.sorted { $0.typeIdentifier < $1.typeIdentifier }).allSatisfy(same) {
                if !meetingThemselves.isEmpty, meetingThemselves.contains(sample.typeIdentifier) { sentAt[matches[0].uuid] = index }
                plan.outcomes.append(crossed.isEmpty ? .unchanged : .replaced)
                continue
            }
            let version = (matches.compactMap { SyncReplacement.storedMark(of: $0)?.version }.max() ?? 0) + 1
            for old in matches + storedMembers where deleted.insert(old.uuid).inserted {
                plan.delete(old)
            }
            for var member in candidate.members {
                member.metadata[MetadataKeySyncVersion] = .number(version)
                plan.writes.append(member)
            }
            var written = sample
            written.metadata[MetadataKeySyncVersion] = .number(version)
            plan.writes.append(written)
            plan.outcomes.append(matches.isEmpty && crossed.isEmpty ? .added : .replaced)
            if repeats {
                // Met by the later sendings of the point as stored (those it replaced are gone: a point sent many
                // times keeps a short list).
                ours[key] = (ours[key] ?? []).filter { !deleted.contains($0.uuid) } + [written]
                plan.fresh.insert(written.uuid)
                for member in plan.writes.suffix(candidate.members.count + 1).dropLast() {
                    plan.fresh.insert(member.uuid)
                    byUUID[member.uuid] = member
                }
                if let point = HAEWritePlan.pointOfPart(type: key.type, identifier: key.identifier) {
                    withParts.insert(PointKey(key.type, point))
                }
            }
            if sleepMeetsItself, written.typeIdentifier == HAESleep.type, HAEWritePlan.form(of: written) != nil {
                plan.fresh.insert(written.uuid)
                HAEWritePlan.insertByStart(HAEWritePlan.overItsPeriod(written), into: &otherForm, longest: &longestForm)
            } else if !meetingThemselves.isEmpty, meetingThemselves.contains(written.typeIdentifier),
                      let form = HAEWritePlan.form(of: written), form != "none", !HAEWritePlan.isPart(written) {
                plan.fresh.insert(written.uuid)
                byUUID[written.uuid] = written
                sentAt[written.uuid] = index
                HAEWritePlan.insertByStart(written, into: &otherForm, longest: &longestForm)
            }
        }
        if let start = sendingStart {
            plan.dropPartsGone(sending: candidates[start...], first: start, stored: otherForm, deleted: &deleted)
        }
        if !plan.retracted.isEmpty { plan.writes.removeAll { plan.retracted.contains($0.uuid) } }
        // Finest form first (then by start, then by identifier: one order whatever the dictionary's), so that a coarser
        // point is weighed against what the finer ones inside it keep once they are settled themselves.
        let wide = partial.values.filter { !deleted.contains($0.sample.uuid) }.sorted {
            let levels = (HAEWritePlan.level(of: $0.sample), HAEWritePlan.level(of: $1.sample))
            if levels.0 != levels.1 { return levels.0 < levels.1 }
            if $0.sample.start != $1.sample.start { return $0.sample.start < $1.sample.start }
            return $0.sample.uuid.uuidString < $1.sample.uuid.uuidString
        }
        plan.settle(wide, stored: otherForm, deleted: &deleted, storedSample: { byUUID[$0] }, sentAt: sentAt, cumulative: cumulative)
        // A point of the batch that a later one cut to its remainder there is not written whole.
        if !plan.retracted.isEmpty { plan.writes.removeAll { plan.retracted.contains($0.uuid) } }
        plan.dropOrphanedParts(stored: otherForm, deleted: &deleted)
        plan.orderDeletes(as: storedPieces)
        return plan
    }

    /// Orders the deletions as the store holds the samples (the order they were read in). The plan finds some of them
    /// through dictionaries, whose order changes from run to run: so the same import gives the same tombstones, with
    /// the same change numbers, every time.
    private mutating func orderDeletes(as stored: [Sample]) {
        guard deletes.count > 1 else { return }
        var position: [UUID: Int] = [:]
        position.reserveCapacity(stored.count)
        for (index, sample) in stored.enumerated() { position[sample.uuid] = index }
        deletes = deletes.enumerated().sorted {
            (position[$0.element.uuid] ?? Int.max, $0.offset) < (position[$1.element.uuid] ?? Int.max, $1.offset)
        }.map(\.element)
    }

    /// Whether `candidate` gives way to the later points of its input it names (``HAECandidate/givesWayTo``): those of
    /// one alternative are all stored as sent, and what it crosses of the store is only points of its own form at
    /// another alignment or those later points themselves (whatever it crosses, when earlier finer points hold it
    /// already: ``HAECandidate/heldAlready``).
    static func givesWay(_ candidate: HAECandidate, crossed: [Sample], isStoredAsSent: (Sample) -> Bool) -> Bool {
        let identifiers = Set(candidate.givesWayTo.joined().compactMap { later -> String? in
            guard case let .string(identifier)? = later.metadata[MetadataKeySyncIdentifier] else { return nil }
            return identifier
        })
        let form = HAEWritePlan.form(of: candidate.sample)
        let alone = candidate.heldAlready || crossed.allSatisfy { stored in
            if HAEWritePlan.form(of: stored) == form { return true }
            guard case let .string(identifier)? = stored.metadata[MetadataKeySyncIdentifier] else { return false }
            return identifiers.contains(identifier)
        }
        guard alone else { return false }
        return candidate.givesWayTo.contains { $0.allSatisfy(isStoredAsSent) }
    }

    /// Puts `sample` into its type's list of `lists` after those that start no later (samples mostly come in order:
    /// most go at the end), and notes its duration in `longest`.
    private static func insertByStart(_ sample: Sample, into lists: inout [String: [Sample]], longest: inout [String: TimeInterval]) {
        let type = sample.typeIdentifier
        var low = 0, high = lists[type]?.count ?? 0
        while low < high {
            let middle = (low + high) / 2
            if lists[type]![middle].start <= sample.start { low = middle + 1 } else { high = middle }
        }
        lists[type, default: []].insert(sample, at: low)
        longest[type] = max(longest[type] ?? 0, sample.duration)
    }

    /// The plan against no stored samples, what ``plan(_:stored:cumulative:)`` gives for `stored: []` without its
    /// look-ups: every candidate added, its members and then itself written with version 1.
    static func planAgainstNothingStored(_ candidates: [HAECandidate]) -> HAEWritePlan {
        var plan = HAEWritePlan()
        plan.writes.reserveCapacity(candidates.count)
        plan.outcomes = Array(repeating: .added, count: candidates.count)
        for candidate in candidates {
            for var member in candidate.members {
                member.metadata[MetadataKeySyncVersion] = .number(1)
                plan.writes.append(member)
            }
            var written = candidate.sample
            written.metadata[MetadataKeySyncVersion] = .number(1)
            plan.writes.append(written)
        }
        return plan
    }

    /// A night summary re-sent: its stored parts that the re-send no longer has (a stage now 0, restaged) are
    /// deleted, so the night is the re-send's, whatever its parts; the sending's first candidate (at `first`) counts
    /// as replaced. Done as each sending ends, so a night sent several times in the batch leaves what a batch per
    /// sending leaves (the parts an earlier sending wrote that a later one lacks are not written). Another source's
    /// night of the same date is another night: only parts of the sending's sources, or related ones, go. (One point's
    /// parts can have sources of their own: the oldest form's `sleepSource` and `inBedSource`.)
    private mutating func dropPartsGone(sending parts: ArraySlice<HAECandidate>, first: Int, stored: [String: [Sample]],
                                        deleted: inout Set<UUID>) {
        guard let sample = parts.first?.sample, let night = HAEWritePlan.nightKey(sample) else { return }
        let sent = Set(parts.map(\.syncIdentifier))
        let sources = Set(parts.map(\.sample.source))
        for old in stored[HAESleep.type] ?? [] where HAEWritePlan.form(of: old) == "night" && !deleted.contains(old.uuid) {
            guard HAEWritePlan.nightKey(old) == night, sources.contains(where: { HAEWritePlan.related($0, old.source) }),
                  case let .string(identifier)? = old.metadata[MetadataKeySyncIdentifier], !sent.contains(identifier),
                  deleted.insert(old.uuid).inserted else { continue }
            delete(old)
            if outcomes.indices.contains(first), outcomes[first] == .added || outcomes[first] == .unchanged {
                outcomes[first] = .replaced
            }
        }
    }

    /// For each candidate that is a heart-rate point's extra sample (`|min`, `|max`), the index of its point's own
    /// candidate: the same source's, with the point's sync identifier, within the two candidates after it (the
    /// builder sends a point's extras just before it).
    static func mainsOfParts(_ candidates: [HAECandidate]) -> [Int: Int] {
        var mains: [Int: Int] = [:]
        for index in candidates.indices where candidates[index].sample.typeIdentifier == partedType {
            guard let point = pointOfPart(type: partedType, identifier: candidates[index].syncIdentifier) else { continue }
            for next in (index + 1)..<min(candidates.count, index + 3)
            where candidates[next].syncIdentifier == point && candidates[next].sample.source == candidates[index].sample.source {
                mains[index] = next
                break
            }
        }
        return mains
    }

    /// Whether a stored sample is one of a heart-rate point's extra samples (`|min`, `|max`).
    static func isPart(_ sample: Sample) -> Bool {
        guard case let .string(identifier)? = sample.metadata[MetadataKeySyncIdentifier] else { return false }
        return pointOfPart(type: sample.typeIdentifier, identifier: identifier) != nil
    }

    /// The sync identifier of the point whose extra sample (`|min`, `|max`) has `identifier`; nil when it is not one.
    /// Only heart rate's points are made of parts: an element of another type whose identifier happens to end in
    /// `|min` (a symptom named `min`, kept untyped) is an element of its own.
    static func pointOfPart(type: String, identifier: String) -> String? {
        guard type == HAEWritePlan.partedType, identifier.hasSuffix("|min") || identifier.hasSuffix("|max") else { return nil }
        return String(identifier.dropLast(4))
    }

    /// The one type whose points are stored as parts (``HAESampleBuilder``'s heart rate).
    static let partedType = "HKQuantityTypeIdentifierHeartRate"

    /// The order of HAE's aggregation forms, finest first; sleep's and unknown forms rank after them.
    static func level(_ form: String) -> Int { ["none": 0, "minute": 1, "hour": 2, "day": 3, "week": 4][form] ?? 5 }

    static func level(of sample: Sample) -> Int { form(of: sample).map(level) ?? 5 }

    /// A heart-rate point's extra samples (`|min`, `|max`) whose point this plan deletes go with it: those of the
    /// point's own source (another source's point of the same time has its own).
    private mutating func dropOrphanedParts(stored: [String: [Sample]], deleted: inout Set<UUID>) {
        var gone = Set<SourcedKey>()
        for list in stored.values {
            for sample in list where deleted.contains(sample.uuid) && !HAEWritePlan.isPart(sample) {
                if let key = SourcedKey(point: sample) { gone.insert(key) }
            }
        }
        guard !gone.isEmpty else { return }
        let written = Set(writes.compactMap { SourcedKey(point: $0) })
        for list in stored.values {
            for sample in list where !deleted.contains(sample.uuid) {
                guard let main = SourcedKey(pointOfPart: sample), gone.contains(main), !written.contains(main),
                      deleted.insert(sample.uuid).inserted else { continue }
                deletes.append((sample.uuid, sample.typeIdentifier, sample.source))
            }
        }
    }

    /// A point of one source.
    struct SourcedKey: Hashable {
        let point: PointKey
        let source: String

        /// The key of the point `sample` is (or is part of) by its own sync identifier; nil without one.
        init?(point sample: Sample) {
            guard case let .string(identifier)? = sample.metadata[MetadataKeySyncIdentifier] else { return nil }
            self.point = PointKey(sample.typeIdentifier, identifier)
            source = sample.source
        }

        /// The key of the heart-rate point whose extra sample (`|min`, `|max`) `sample` is; nil for any other sample.
        init?(pointOfPart sample: Sample) {
            guard case let .string(identifier)? = sample.metadata[MetadataKeySyncIdentifier],
                  let point = HAEWritePlan.pointOfPart(type: sample.typeIdentifier, identifier: identifier) else { return nil }
            self.point = PointKey(sample.typeIdentifier, point)
            source = sample.source
        }
    }

    /// The stored heart-rate points whose extra samples (`|min`, `|max`) are found by them.
    private struct PartedPoints {
        private let points: Set<SourcedKey>

        init(_ stored: [Sample]) {
            points = Set(stored.lazy.filter { !HAEWritePlan.isPart($0) }.compactMap { SourcedKey(point: $0) })
        }

        /// Whether the point of the extra sample `part` is stored.
        func hasPoint(of part: Sample) -> Bool {
            guard !points.isEmpty, let point = SourcedKey(pointOfPart: part) else { return false }
            return points.contains(point)
        }
    }


    /// The metadata key of a point that finer points of another form cover in part: its amount as sent (its value is
    /// what is left of it beyond them).
    static let totalKey = "HAETotal"

    /// The metadata key of a remainder that starts later than its period (after the finer points that begin the
    /// period, or after an export's samples): the period's start, in seconds since 1970. Every rule that finds a
    /// stored point by its time uses its whole period (``period(of:)``); the sample's own times are where its amount
    /// lies, for statistics.
    static let periodStartKey = "HAEPeriodStart"

    /// The metadata key of a piece of a point's rest that ends before its period (``HAEPieces``): the period's end, in
    /// seconds since 1970.
    static let periodEndKey = "HAEPeriodEnd"

    /// The metadata key of a point an export's samples reduced: the end of the last of them inside its period, in
    /// seconds since 1970. Its amount (and ``totalKey``) no longer holds what they counted up to there, so a later
    /// export is weighed against it only after this (``exportBoundary(of:)``).
    static let exportUntilKey = "HAEExportUntil"

    /// The metadata key of a point an export's samples reduced: what they held of its period when they reduced it (up
    /// to ``exportUntilKey``), in its unit. Its amount (and ``totalKey``) plus this is what it held before them, so a
    /// later import weighs it over its whole period again against the samples stored then (``exportBoundary(of:)``):
    /// a sample replaced since by a greater sync version (an entry edited in the app) comes off as it is now, not as it
    /// was. A point reduced before the key existed (session 45) has ``exportUntilKey`` alone.
    static let exportHeldKey = "HAEExportHeld"

    /// Where a stored point's amount still holds samples an export may count: its period's start for a point whose
    /// ``exportHeldKey`` gives back what the export's samples took; else its ``exportUntilKey``; else, for a point
    /// whose start finer points moved (``periodStartKey``), its period's start; else its start (a point an export
    /// reduced before either key existed starts there).
    static func exportBoundary(of sample: Sample) -> Date {
        if exportHeld(by: sample) == nil, case let .number(seconds)? = sample.metadata[exportUntilKey] {
            return Date(timeIntervalSince1970: seconds)
        }
        return periodStart(of: sample)
    }

    /// What an export's samples held of a stored point's period when they reduced it (``exportHeldKey``); nil when
    /// none reduced it, or it was reduced before the key existed.
    static func exportHeld(by sample: Sample) -> Double? {
        guard case let .number(held)? = sample.metadata[exportHeldKey] else { return nil }
        return held
    }

    /// The start of the period a stored HAE point stands for: its ``periodStartKey``, else its start.
    static func periodStart(of sample: Sample) -> Date {
        if case let .number(seconds)? = sample.metadata[periodStartKey] { return Date(timeIntervalSince1970: seconds) }
        return sample.start
    }

    /// The end of the period a stored HAE point stands for: its ``periodEndKey``, else its end.
    static func periodEnd(of sample: Sample) -> Date {
        if case let .number(seconds)? = sample.metadata[periodEndKey] { return Date(timeIntervalSince1970: seconds) }
        return sample.end
    }

    /// `sample` over the whole period it stands for (itself when it starts and ends with it), for the rules that find a
    /// stored point by its time.
    static func overItsPeriod(_ sample: Sample) -> Sample {
        let start = periodStart(of: sample), end = periodEnd(of: sample)
        guard start != sample.start || end != sample.end else { return sample }
        var whole = sample
        whole.start = start
        whole.end = end
        return whole
    }

    /// `kept` (a remainder of a point whose period starts at `periodStart`) starting at `start`, its period kept in
    /// its metadata when the two differ.
    static func starting(_ kept: Sample, at start: Date, periodStart: Date) -> Sample {
        var moved = kept
        moved.start = start
        moved.metadata[periodStartKey] = start > periodStart ? .number(periodStart.timeIntervalSince1970) : nil
        return moved
    }

    /// The stored points of a coarser form that the payload's finer points overlap without reaching beyond them
    /// (a day total where hours since the last sync come): each is deleted where the finer points (stored and written,
    /// of its type, a related source and another form) cover all of its period; a cumulative one otherwise keeps
    /// what is left of its amount as sent (``totalKey``) beyond the finer points inside its period (replaced by that
    /// remainder, deleted when nothing is left); any other (a night summary) is kept whole. Nothing the phone sent is
    /// lost, and a step is counted once.
    /// `first`: the outcome of the first candidate that crossed it, which counts as replaced when it is deleted.
    /// `sentAt`: where in the batch the points of a type whose points overlap each other in the batch
    /// (``HAEOverlapsInBatch``) come, by uuid: a point sent there gives up to those of its form sent after it, not to
    /// those before (a file imported again leaves what one import left).
    private mutating func settle(_ wide: [(sample: Sample, first: Int)], stored: [String: [Sample]], deleted: inout Set<UUID>,
                                 storedSample: (UUID) -> Sample?, sentAt: [UUID: Int], cumulative: (String) -> Bool) {
        // The payload's own points (remainders written below are not).
        let sent = writes
        // What each point settled here keeps (its remainder, or nothing): a coarser point settled after it weighs it so.
        // Every stored HAE point's amount is then what it holds beyond the finer points inside its period, and a day
        // and the hours inside it add up to the day's total once (weighing the day as sent, and its hours as well,
        // took the hours off a week twice).
        var settled: [UUID: Quantity] = [:]
        // Each type's sent and stored samples by start: a point's finer and misaligned ones are looked for among those
        // that can meet its period, in their lists' order (the same samples, in the same order, as a filter of all).
        var sentByType: [String: (samples: [Sample], index: HAEStartIndex)] = [:]
        for (type, samples) in Dictionary(grouping: sent, by: \.typeIdentifier) { sentByType[type] = (samples, HAEStartIndex(samples)) }
        var storedIndex: [String: HAEStartIndex] = [:]
        for (point, first) in wide {
            guard let form = HAEWritePlan.form(of: point) else { continue }
            let sentOfType = sentByType[point.typeIdentifier]
            let nearSent = sentOfType.map { entry in entry.index.places(meeting: point.start, point.end).map { entry.samples[$0] } } ?? []
            let storedOfType = stored[point.typeIdentifier] ?? []
            if storedIndex[point.typeIdentifier] == nil { storedIndex[point.typeIdentifier] = HAEStartIndex(storedOfType) }
            // The batch's own points in the lists (``HAEOverlapsInBatch``) are weighed once, as sent.
            let nearStored = storedIndex[point.typeIdentifier]!.places(meeting: point.start, point.end).map { storedOfType[$0] }
                .filter { fresh.isEmpty || !fresh.contains($0.uuid) }
            let inside = { (other: Sample) -> Bool in
                other.typeIdentifier == point.typeIdentifier && other.start >= point.start && other.end <= point.end
                    && HAEWritePlan.form(of: other).map { $0 != form } == true
                    && (point.typeIdentifier == HAESleep.type || HAEWritePlan.related(other.source, point.source))
            }
            // Points of its own form with another alignment (hours re-sent after the phone moved to a zone whose hours
            // start at :30), sent now or stored before (an unchanged re-send of them is not written again, and weighing
            // the point without them gave it back what they hold), cover the part of it they overlap, and stand for
            // their amount there, pro rata.
            // A stored one as it lies, not over its period: a remainder left its other part to the points that took it.
            let storedAcross = nearStored.filter { !deleted.contains($0.uuid) && $0.uuid != point.uuid }.map { storedSample($0.uuid) ?? $0 }
            let pointAt = sentAt.isEmpty ? nil : sentAt[point.uuid]
            let across = (nearSent + storedAcross).filter { other in
                other.typeIdentifier == point.typeIdentifier && other.end > point.start && other.start < point.end
                    && (pointAt.map { at in sentAt[other.uuid].map { $0 > at } ?? false } ?? true)
                    && HAEWritePlan.related(other.source, point.source) && HAEWritePlan.isMisaligned(point, with: other, identifier: nil)
            }
            let finer = nearStored.filter { (!deleted.contains($0.uuid) || settled[$0.uuid] != nil) && inside($0) }
                + nearSent.filter(inside)
            var reach = point.start
            let spans = (finer.map { ($0.start, $0.end) } + across.map { (max($0.start, point.start), min($0.end, point.end)) })
                .sorted(by: { $0.0 < $1.0 })
            for span in spans where span.0 <= reach { reach = max(reach, span.1) }
            // Where what is left lies: over the gaps between the finer points from where the stored point began (after
            // an export's samples) to its period's end (``HAEPieces``), so that those hours or days count their own
            // figures alone.
            let stored = storedSample(point.uuid)?.start ?? point.start
            var remainder: [Sample] = []
            if reach < point.end {
                guard cumulative(point.typeIdentifier), case let .quantity(amount) = point.value else { continue }
                var total = amount.value
                if case let .number(sent)? = point.metadata[HAEWritePlan.totalKey] { total = sent }
                let share = { (part: Sample) -> Double in
                    guard part.end > part.start else { return 1 }
                    return min(part.end, point.end).timeIntervalSince(max(part.start, point.start)) / part.duration
                }
                let values = finer.map { part -> Double? in
                    guard let quantity = settled[part.uuid] ?? part.value.quantity else { return nil }
                    return try? quantity.value(in: amount.unit)
                } + across.map { part -> Double? in
                    guard case let .quantity(quantity) = part.value, let value = try? quantity.value(in: amount.unit) else { return nil }
                    // A remainder of a point stands for the time it shares at the point's own rate, as sent (its amount
                    // over its whole period), as when it was sent whole: weighed at the rate of what it keeps, the point
                    // being weighed came out otherwise at each import.
                    if case let .number(sent)? = part.metadata[HAEWritePlan.totalKey], quantity.unit == amount.unit {
                        let period = HAEWritePlan.periodEnd(of: part).timeIntervalSince(HAEWritePlan.periodStart(of: part))
                        let shared = min(part.end, point.end).timeIntervalSince(max(part.start, point.start))
                        if period > 0, shared > 0 { return sent * shared / period }
                    }
                    return value * share(part)
                }
                guard !values.contains(where: { $0 == nil }) else { continue }
                let parts = values.reduce(0) { $0 + $1! }
                let left = total - parts
                if left > max(1e-9, abs(total) * 1e-9) {
                    guard abs(left - amount.value) > max(1e-9, abs(total) * 1e-9) else { continue }
                    var kept = point
                    kept.uuid = UUID()
                    kept.metadata[MetadataKeySyncVersion] = .number((SyncReplacement.storedMark(of: point)?.version ?? 0) + 1)
                    remainder = HAEPieces.rest(of: kept, left: Quantity(left, amount.unit), total: total, from: stored, avoiding: spans)
                }
            }
            guard deleted.insert(point.uuid).inserted else { continue }
            delete(point)
            if let unit = point.value.quantity?.unit {
                settled[point.uuid] = remainder.isEmpty ? Quantity(0, unit) : HAEPieces.joined(remainder).value.quantity
            }
            if !remainder.isEmpty {
                writes += remainder
            } else if outcomes.indices.contains(first), outcomes[first] == .added {
                outcomes[first] = .replaced
            }
        }
    }

    /// Whether `stored` is a point of the same form as `sample` (an hour and an hour) but another one, whose period
    /// overlaps it with another alignment: hours of a zone whose hours start at :30 after those of a whole-hour zone.
    /// Sleep is left out (its stages and nights have rules of their own). `identifier`: the sample's sync
    /// identifier when it is not yet in its metadata.
    static func isMisaligned(_ stored: Sample, with sample: Sample, identifier: String?) -> Bool {
        guard sample.typeIdentifier != HAESleep.type, let kind = form(of: sample), kind != "none", form(of: stored) == kind,
              stored.start != sample.start || stored.end != sample.end,
              case let .string(storedIdentifier)? = stored.metadata[MetadataKeySyncIdentifier] else { return false }
        let sampleIdentifier: String?
        if let identifier { sampleIdentifier = identifier }
        else if case let .string(written)? = sample.metadata[MetadataKeySyncIdentifier] { sampleIdentifier = written }
        else { sampleIdentifier = nil }
        return storedIdentifier != sampleIdentifier
    }

    /// Whether the store already holds a cumulative point's figure in another form, so that storing it would only
    /// swap one form for the other: its stored self reduced to a remainder by finer points (``totalKey`` is the
    /// amount sent, the rest as before), or, with no stored self, finer points of another form inside its period
    /// that add up to its amount (the hour whose minutes are stored).
    static func isHeld(_ sample: Sample, matches: [Sample], finer: [Sample]) -> Bool {
        guard case let .quantity(amount) = sample.value else { return false }
        let tolerance = max(1e-9, abs(amount.value) * 1e-9)
        if matches.count == 1, let stored = matches.first, case let .number(total)? = stored.metadata[totalKey],
           case let .quantity(kept)? = Optional(stored.value), kept.unit == amount.unit, abs(total - amount.value) <= tolerance {
            // Both over their periods: where each one's amount lies within it is the store's business.
            var reduced = overItsPeriod(stored), sent = overItsPeriod(sample)
            reduced.value = sample.value
            reduced.metadata[totalKey] = nil
            reduced.metadata[periodStartKey] = nil
            reduced.metadata[periodEndKey] = nil
            sent.metadata[periodStartKey] = nil
            sent.metadata[periodEndKey] = nil
            return same(reduced, sent)
        }
        guard matches.isEmpty, !finer.isEmpty, let form = form(of: sample),
              finer.allSatisfy({ $0.start >= sample.start && $0.end <= sample.end && HAEWritePlan.form(of: $0) != form }) else { return false }
        // Added up, and merged as statistics merge sources: held only when both give its amount, so it counts the
        // same merged or not.
        var sum = 0.0
        var merged: [MergedSample] = []
        for (index, part) in finer.enumerated() {
            guard case let .quantity(quantity) = part.value, let value = try? quantity.value(in: amount.unit) else { return false }
            sum += value
            merged.append(MergedSample(index: index, sample: part, value: value))
        }
        let mergedSum = SourceMerger(ranks: [:]).merge(merged, keepingLost: false).samples.reduce(0.0) { total, part in
            total + part.kept.reduce(0.0) { $0 + ($1.isInstant ? part.value : part.amount(forSeconds: $1.seconds)) }
        }
        return abs(sum - amount.value) <= tolerance && abs(mergedSum - amount.value) <= tolerance
    }

    /// Whether a stored sample that is not HAE's can be part of HAE's figures: anything but what the store's owner typed
    /// in (source `hkctl`), which never reached HealthKit on the phone.
    static func isFromHealthKit(_ sample: Sample) -> Bool { sample.source != AuthorizationState.ownerSource }

    /// Whether two source names are the same source for a point: equal, sharing one of their `|`-separated names, or
    /// one of them the name given to a point written without a source (older app settings write none: the same point
    /// re-sent after an update that writes sources is the same point).
    static func related(_ a: String, _ b: String) -> Bool {
        if a == b || a == HealthAutoExportPayload.defaultSourceName || b == HealthAutoExportPayload.defaultSourceName { return true }
        guard a.contains("|") || b.contains("|") else { return false }
        let names = Set(a.split(separator: "|"))
        return b.split(separator: "|").contains { names.contains($0) }
    }

    /// Whether a stored sample is what the candidate would write (its sync version, and the program it came
    /// through, aside: the same figures pushed after a file was imported are unchanged).
    static func same(_ stored: Sample, _ candidate: Sample) -> Bool {
        guard stored.start == candidate.start, stored.end == candidate.end, stored.source == candidate.source,
              stored.value == candidate.value else { return false }
        // A workout's totals, statistics and route, a state of mind's valence, labels and associations live in the
        // detail (a correlation's detail names member UUIDs, compared through the members instead).
        if candidate.detail?.correlation == nil, stored.detail != candidate.detail { return false }
        var metadata = stored.metadata, wanted = candidate.metadata
        metadata[MetadataKeySyncVersion] = nil
        metadata[HAESampleBuilder.receivedThroughKey] = nil
        wanted[HAESampleBuilder.receivedThroughKey] = nil
        return metadata == wanted
    }

    /// The form of an HAE sample among those that can stand for the same time differently: its aggregation
    /// (`none` for a reading sent without aggregation, minute, hour, day, week), or for sleep per stage or per night;
    /// nil for a sample that is not HAE's. Readings among themselves never stand for each other (they are one form);
    /// beside a period of another form they are its finer points (the app's aggregation setting changed).
    static func form(of sample: Sample) -> String? {
        guard case let .string(form)? = sample.metadata[HAESampleBuilder.aggregationKey] else { return nil }
        if sample.typeIdentifier == HAESleep.type { return form == "night" ? "night" : "stage" }
        return form
    }

    /// The samples of `list` (sorted by start; `longest` is the longest among them) that `sample` overlaps.
    static func overlapping(_ sample: Sample, in list: [Sample], longest: TimeInterval) -> [Sample] {
        candidates(near: sample, in: list, longest: longest).filter { $0.start < sample.end && sample.start < $0.end }
    }

    /// The samples of `list` (sorted by start; `longest` is the longest among them) that share time with `sample`, or
    /// where an instant lies within the other (ends included).
    static func overlappingInstantsIncluded(_ sample: Sample, in list: [Sample], longest: TimeInterval) -> [Sample] {
        candidates(near: sample, in: list, longest: longest).filter { other in
            if sample.start == sample.end || other.start == other.end {
                return other.start <= sample.end && sample.start <= other.end
            }
            return other.start < sample.end && sample.start < other.end
        }
    }

    /// The samples of `list` (sorted by start) that start from `longest` before `sample` to its end: every one that
    /// can reach it.
    private static func candidates(near sample: Sample, in list: [Sample], longest: TimeInterval) -> ArraySlice<Sample> {
        let from = sample.start.addingTimeInterval(-longest)
        var low = 0, high = list.count
        while low < high {
            let middle = (low + high) / 2
            if list[middle].start < from { low = middle + 1 } else { high = middle }
        }
        var end = low
        while end < list.count, list[end].start <= sample.end { end += 1 }
        return list[low..<end]
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
