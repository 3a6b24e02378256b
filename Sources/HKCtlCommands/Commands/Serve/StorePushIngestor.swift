import HealthCore
import TextSupport

/// Pushes into the store named by the command line: tokens from its `push-tokens.json`, samples through
/// ``HealthImporter/importHealthAutoExport(_:receivedThrough:)`` once the pushing source is found to have the owner's
/// permission for each of the payload's types (untyped records, which no grant can name, need none).
struct StorePushIngestor: PushIngesting {
    let path: String
    let catalogue: SampleTypeCatalogue
    let timeZone: ZoneRules
    let lockTimeout: Double
    /// The time of each push: the clock, or the pinned `--now` / `$HKCTL_NOW` (tests).
    let clock: @Sendable () -> Date

    /// - Parameter nowIsPinned: Whether `--now` or `$HKCTL_NOW` pinned the time; else each push takes the clock's.
    init(context: CommandContext, nowIsPinned: Bool) {
        path = context.globals.storePath
        catalogue = context.catalogue
        timeZone = context.globals.time.timeZone
        lockTimeout = context.globals.lockTimeout
        let pinned = context.globals.time.now
        clock = { nowIsPinned ? pinned : Date() }
    }

    private func fileStore(recording source: String?) -> JSONFileStore {
        let now = clock()
        return JSONFileStore(path: path, catalogue: catalogue, timeZone: timeZone, lockTimeout: lockTimeout, clock: { now },
                             recording: source.map { OperationRecording(kind: .import, source: $0, date: now) })
    }

    /// The type prefix of what a Health Auto Export import keeps untyped (docs/IMPORT.md): `HealthAutoExport_<name>`.
    static let untypedPrefix = "HealthAutoExport_"

    func source(forToken token: String) throws -> String? {
        try fileStore(recording: nil).source(forPushToken: token)
    }

    func store(_ body: [UInt8], through source: String) throws -> PushReceipt {
        let payload: HealthAutoExportPayload
        do {
            payload = try HealthAutoExportPayload(bytes: body, name: source)
        } catch {
            throw PushRefusal.badPayload(CLIErrorWording.message(for: error))
        }
        // The push is recorded as an import by its source, so `HKCTL_SOURCE=NAME hkctl undo` takes the last one back.
        let storage = fileStore(recording: source)
        let decisions = try HealthStore(storage: storage, source: AuthorizationState.ownerSource, catalogue: catalogue).authorizationDecisions()
        // Every type the source may not write, so that the answer names one grant command for all of them. Types no
        // source may ever write (Apple computes them: exercise, stand and move minutes) do not refuse the push: the
        // library refuses their points one by one, and the receipt lists them.
        var missing: [String] = []
        for identifier in payload.sampleTypeIdentifiers.sorted() where CorrelationType.identified(identifier) == nil {
            // What hkctl cannot type yet (unknown metric names, the app's other arrays) is kept untyped, as an import
            // keeps it; no type exists to grant for it, so it needs none. Every typed identifier is checked, also one
            // outside the catalogue (workouts, moods): a type this check cannot name is named by its identifier
            // rather than let through.
            guard !identifier.hasPrefix(StorePushIngestor.untypedPrefix),
                  !AuthorizationState.unshareableTypes.contains(identifier) else { continue }
            let type: SampleType? = identifier == Workout.typeIdentifier ? Workout.sampleType
                : identifier == StateOfMind.typeIdentifier ? .stateOfMindType() : catalogue.type(identifier: identifier)
            let name = type?.name ?? identifier
            if decisions.shareStatus(source: source, type: identifier) != .sharingAuthorized {
                missing.append(name)
            }
        }
        if !missing.isEmpty {
            throw PushRefusal.notPermitted("Source '\(source)' may not write \(missing.joined(separator: ", ")) yet; the owner can allow it "
                + "with the command: hkctl auth grant \(ShellQuoting.quote(source)) --share \(ShellQuoting.quote(missing.joined(separator: ","))).")
        }
        // The import runs as the pushing source, which the library holds to the same permissions.
        let importer = HealthImporter(store: try HealthStore(storage: storage, source: source, catalogue: catalogue), catalogue: catalogue,
                                      zoneRules: timeZone)
        let receipt: ImportReceipt
        do {
            receipt = try importer.importHealthAutoExport(payload, receivedThrough: source)
        } catch let error as AuthorizationError {
            // The library holds the source to its permissions too; whatever the check above missed is refused the same way.
            throw PushRefusal.notPermitted(CLIErrorWording.message(for: error))
        }
        return PushReceipt(json: receipt.json, added: receipt.totals.added, replaced: receipt.totals.replaced,
                           refused: receipt.totals.rejected)
    }
}
