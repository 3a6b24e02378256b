import HealthCore

/// hkctl's words for the library's errors whose remedy is a flag, an environment variable or another hkctl command:
/// HealthCore's messages state the facts and what a library user can do (open the store elsewhere, repair the
/// counter); hkctl keeps the facts and swaps that remedy for the option or command a person types. Every other error
/// prints its own description.
enum CLIErrorWording {
    /// The one line hkctl prints for `error` (without the leading "Error: ").
    static func message(for error: Error) -> String {
        var text = "\(error)"
        for (library, command) in remedies(for: error) { text = text.replacing(library, with: command) }
        return text
    }

    /// The library's words for a remedy in `error`'s message, each with hkctl's.
    private static func remedies(for error: Error) -> [(String, String)] {
        switch error {
        case is TimeInputError:
            return [("write it as an ISO 8601 date or time, like '2024-06-01', '2024-06-01T08:30' or '2024-06-01T08:30:00+02:00'.",
                     "write it like '2024-06-01', '2024-06-01T08:30', '08:30', 'yesterday 22:30' or '-2h'.")]
        case is StoreError:
            return [("; open the store in another folder.", "; choose another place with --store or $HKCTL_STORE."),
                    ("); open the store in an empty or new folder.", "); point --store at an empty or new folder."),
                    ("; open the store in a folder (it is created if missing).", "; point --store at a folder (it is created if missing)."),
                    ("; try again, or wait longer for the lock.", "; try again, or raise $HKCTL_LOCK_TIMEOUT."),
                    ("the doctor's repair (StoreDoctor.repair) rebuilds it from", "'hkctl doctor --repair' rebuilds it from"),
                    ("The doctor's repair (StoreDoctor.repair) rebuilds the counter.", "Run 'hkctl doctor --repair' to rebuild the counter."),
                    ("; a store holds only regular files and real folders. Move it away (the doctor lists such entries).",
                     "; hkctl uses only regular files and real folders in a store. Move it away (hkctl doctor lists such entries)."),
                    ("; put it back, or open the store at its new place.", "; put it back, or point --store or $HKCTL_STORE at its new place.")]
        case is UndoError:
            return [("(an undo takes back only what this source did, newest first).",
                     "('hkctl undo' takes back only what this source did, newest first)."),
                    ("(an undo without a type takes back the source's newest operation of any type).",
                     "('hkctl undo' without --type takes back its newest operation of any type)."),
                    ("The store changed between showing the undo and doing it (another process undid or wrote something); "
                        + "nothing was undone: ask again what the undo would take back now.",
                     "The store changed while hkctl was asking (another hkctl undid or wrote something); nothing was "
                        + "undone: run 'hkctl undo' again to see what it would undo now.")]
        case let ChangeError.nothingOfTypeToDelete(type, _):
            return [("nothing was deleted.", "nothing was deleted (see hkctl list \(type)).")]
        case is ChangeError:
            return [("; pass an anchor exactly as the changes gave it, or start over without one.",
                     "; pass an anchor exactly as 'hkctl changes' printed it, or omit --since to start over."),
                    ("(is it from another store?); start over without an anchor.", "(is it from another store?); omit --since to start over."),
                    ("after the last compaction; start over without an anchor to sync everything again.",
                     "after the last 'hkctl compact'; omit --since to sync everything again."),
                    ("nothing was changed (a source changes only its own samples).",
                     "nothing was changed (see hkctl list; a source changes only its own samples).")]
        case is SourceError:
            return [("as the store's sources list it.", "as 'hkctl sources' lists it.")]
        case let PushTokenError.exists(name):
            return [("; revoke it first, then make a new one.", "; revoke it first (hkctl serve token revoke \(name)), then make a new one.")]
        case is PushTokenError:
            return [("; the token list shows the names that have one.", "; 'hkctl serve token list' shows the names that have one.")]
        case is WorkoutError:
            return [(" WorkoutActivityType lists every activity.", " See 'hkctl types workouts' for every activity."),
                    ("from the start to the end (", "from --from to --to (")]
        case is CorrelationError:
            return [("such as its energy or protein.", "such as --energy 350kcal or --protein 12g.")]
        case let CharacteristicError.notASampleType(key):
            return [("; set the characteristic instead.", "; use 'hkctl me set \(key) VALUE'.")]
        case is UnitError:
            return [("; HealthUnit reads HealthKit's unit strings (such as mL, kg, count/min).",
                     "; see 'hkctl help units' for the units hkctl understands.")]
        case is SampleError:
            return [("; the catalogue lists the types (for example", "; run 'hkctl types' to list the types (for example"),
                    (" The catalogue lists them all.", " Run 'hkctl types' to list them all."),
                    ("(a wrong entry is deleted instead).", "(a wrong entry is removed with 'hkctl delete')."),
                    ("give both or neither.", "give both (hkctl add: --sync-id ID --sync-version N) or neither."),
                    ("; only what has already happened is recorded here.", "; hkctl records what has already happened.")]
        default:
            return []
        }
    }
}
