import HealthCore

/// hkctl's words for the library's errors whose remedy is a flag, an environment variable or another hkctl command:
/// HealthCore's messages name what a library user can do (open the store elsewhere, repair the counter); a person at
/// the terminal gets the option to type. Every other error prints its own description.
enum CLIErrorWording {
    /// The one line hkctl prints for `error` (without the leading "Error: ").
    static func message(for error: Error) -> String {
        switch error {
        case let TimeInputError.malformed(text):
            return "The time '\(text)' is not understood; write it like '2024-06-01', '2024-06-01T08:30', '08:30', "
                + "'yesterday 22:30' or '-2h'."
        case let StoreError.cannotCreate(path, reason):
            return "Cannot create the store at '\(path)': \(reason); choose another place with --store or $HKCTL_STORE."
        case let StoreError.notAStore(path):
            return "'\(path)' is not an hkctl store (it has other files and no hkctl-store.json); point --store at an empty or new folder."
        case let StoreError.notAFolder(path):
            return "'\(path)' is a file, not a folder; point --store at a folder (it is created if missing)."
        case StoreError.busy:
            return "\(error)".replacing("; try again, or wait longer for the lock.", with: "; try again, or raise $HKCTL_LOCK_TIMEOUT.")
        case StoreError.changeNumbersExhausted, StoreError.counterBehind:
            return "\(error)"
                .replacing("the doctor's repair (StoreDoctor.repair) rebuilds it from", with: "'hkctl doctor --repair' rebuilds it from")
                .replacing("The doctor's repair (StoreDoctor.repair) rebuilds the counter.", with: "Run 'hkctl doctor --repair' to rebuild the counter.")
        case let StoreError.notAFile(path, kind):
            return "'\(path)' is \(kind); hkctl uses only regular files and real folders in a store. Move it away (hkctl doctor lists such entries)."
        case let StoreError.disappeared(path):
            return "The store '\(path)' disappeared (its folder was moved, removed or emptied); put it back, or point --store or $HKCTL_STORE at its new place."
        case let UndoError.nothingToUndo(source):
            return "Nothing to undo: source '\(source)' has no add, import, delete or replacement left that is not undone yet "
                + "('hkctl undo' takes back only what this source did, newest first)."
        case let UndoError.nothingOfTypeToUndo(source, type):
            return "Nothing to undo for \(type): source '\(source)' has no add, import, delete or replacement of \(type) left that is not "
                + "undone yet ('hkctl undo' without --type takes back its newest operation of any type)."
        case UndoError.changedMeanwhile:
            return "The store changed while hkctl was asking (another hkctl undid or wrote something); nothing was "
                + "undone: run 'hkctl undo' again to see what it would undo now."
        case let ChangeError.badAnchor(text):
            return "The anchor '\(text)' is not valid; pass an anchor exactly as 'hkctl changes' printed it, or omit --since to start over."
        case let ChangeError.anchorFromTheFuture(text):
            return "The anchor '\(text)' is ahead of this store (is it from another store?); omit --since to start over."
        case let ChangeError.anchorExpired(text):
            return "The anchor '\(text)' is older than the deletions kept after the last 'hkctl compact'; omit --since to sync everything again."
        case ChangeError.notFoundToReplace:
            return "\(error)".replacing("(a source changes only its own samples).", with: "(see hkctl list; a source changes only its own samples).")
        case let ChangeError.nothingOfTypeToDelete(type, _):
            return "\(error)".replacing("nothing was deleted.", with: "nothing was deleted (see hkctl list \(type)).")
        case SourceError.emptySourceName:
            return "A source name is empty; give each source's name as 'hkctl sources' lists it."
        case let PushTokenError.exists(name):
            return "'\(name)' already has a push token; revoke it first (hkctl serve token revoke \(name)), then make a new one."
        case let PushTokenError.notFound(name):
            return "'\(name)' has no push token; 'hkctl serve token list' shows the names that have one."
        case WorkoutError.unknownActivity:
            return "\(error)".replacing(" WorkoutActivityType lists every activity.", with: " See 'hkctl types workouts' for every activity.")
        case let WorkoutError.durationMismatch(duration, interval):
            return "The duration \(duration) is longer than the time from --from to --to (\(interval)); give one of them, or a duration that fits (pauses make it shorter)."
        case let CorrelationError.emptyFood(name):
            return "The food '\(name)' has no amounts; give at least one, such as --energy 350kcal or --protein 12g."
        case let CharacteristicError.notASampleType(key):
            return "'\(key)' is a characteristic, not a sample type: samples cannot be written to it; use 'hkctl me set \(key) VALUE'."
        case let UnitError.unknownUnit(text):
            return "Unknown unit '\(text)'; see 'hkctl help units' for the units hkctl understands."
        case SampleError.unknownType:
            return "\(error)".replacing("; the catalogue lists the types (for example", with: "; run 'hkctl types' to list the types (for example")
                .replacing(" The catalogue lists them all.", with: " Run 'hkctl types' to list them all.")
        case SampleError.zeroAmount:
            return "\(error)".replacing("(a wrong entry is deleted instead).", with: "(a wrong entry is removed with 'hkctl delete').")
        case SampleError.syncVersionWithoutIdentifier:
            return "\(error)".replacing("give both or neither.", with: "give both (hkctl add: --sync-id ID --sync-version N) or neither.")
        case SampleError.inFuture:
            return "\(error)".replacing("; only what has already happened is recorded here.", with: "; hkctl records what has already happened.")
        default:
            return "\(error)"
        }
    }
}
