import HealthCore
import TextSupport

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

    /// The message hkctl prints for a finding of the doctor: its own words, and the store's errors it quotes.
    static func message(for finding: DoctorFinding) -> String {
        var text = finding.message
        for (library, command) in storeRemedies + findingRemedies(uuid: finding.uuid) { text = text.replacing(library, with: command) }
        return text
    }

    /// The library's words for a remedy in `error`'s message, each with hkctl's.
    private static func remedies(for error: Error) -> [(String, String)] {
        switch error {
        case is TimeInputError:
            return [("HealthCore keeps dates from 1900 on", "hkctl keeps dates from 1900 on"), ("write it as an ISO 8601 date or time, like '2024-06-01', '2024-06-01T08:30' or '2024-06-01T08:30:00+02:00'.",
                     "write it like '2024-06-01', '2024-06-01T08:30', '08:30', 'yesterday 22:30' or '-2h'.")]
        case is StoreError:
            return storeRemedies
        case is UndoError:
            return [("(an undo takes back only what this source did, newest first).",
                     "('hkctl undo' takes back only what this source did, newest first)."),
                    ("(an undo without a type takes back the source's newest operation of any type).",
                     "('hkctl undo' without --type takes back its newest operation of any type)."),
                    ("(an undo without a type takes back the newest).", "('hkctl undo' without --type takes back the newest)."),
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
                     "nothing was changed (see hkctl list; a source changes only its own samples)."),
                    ("or delete the correlation and add it again.",
                     "or delete the correlation ('hkctl delete' with its uuid) and add it again.")]
        case is SourceError:
            return [("as the store's sources list it.", "as 'hkctl sources' lists it.")] + versionWords
        case is UUIDPrefixError:
            return [("; list the samples to see their uuids.", "; see hkctl list.")]
        case is OverflowError:
            return [("(StoreDoctor lists them).", "('hkctl doctor' lists them).")]
        case is ImportError:
            return [("which the importer does not read (", "which hkctl does not read ("),
                    ("a zip archive, the exporter's JSON Lines or", "a zip archive, hkctl jsonl or"),
                    // The library's name of the format, where hkctl names its own export.
                    ("a JSON Lines export (ExportFormat.jsonl)", "an hkctl jsonl export")]
        case is ExportError:
            return [("; the exporter writes through a link only", "; hkctl writes through a link only")]
        case let AuthorizationError.notDetermined(source, type):
            return [("; the owner can allow it with HealthStore.decideAuthorization.",
                     "; the owner can allow it with the command: " + grant("grant", source, share: [type], read: []))]
        case let AuthorizationError.denied(source, type):
            return [("; only the owner can change that, with HealthStore.decideAuthorization.",
                     "; only the owner can change that, with the command: " + grant("grant", source, share: [type], read: []))]
        case let AuthorizationError.pendingApproval(source, share, read):
            return [("; the owner must answer with HealthStore.decideAuthorization.",
                     "; the owner must answer (or run 'hkctl auth request' on a terminal) with the command: "
                        + grant("grant", source, share: share, read: read) + " (or: " + grant("deny", source, share: share, read: read) + ")")]
        case is AuthorizationError:
            return [("Name at least one type to share or to read.", "Name at least one type with --share or --read."),
                    ("; act as the owner (a HealthStore opened with the owner's source).",
                     "; run this without --source and without $HKCTL_SOURCE.")]
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

    /// The words of the library's versions, where hkctl names itself.
    private static let versionWords = [("this version of HealthCore", "this hkctl"), ("upgrade HealthCore", "upgrade hkctl")]

    /// The store's errors, also as the doctor quotes them.
    private static let storeRemedies: [(String, String)] = [
        ("; open the store in another folder.", "; choose another place with --store or $HKCTL_STORE."),
        ("); open the store in an empty or new folder.", "); point --store at an empty or new folder."),
        ("; open the store in a folder (it is created if missing).", "; point --store at a folder (it is created if missing)."),
        ("; try again, or wait longer for the lock.", "; try again, or raise $HKCTL_LOCK_TIMEOUT."),
        ("the doctor's repair (StoreDoctor.repair) rebuilds it from", "'hkctl doctor --repair' rebuilds it from"),
        ("; the doctor's repair (StoreDoctor.repair) rebuilds it;", "; 'hkctl doctor --repair' rebuilds it;"),
        ("The doctor's repair (StoreDoctor.repair) rebuilds the counter.", "Run 'hkctl doctor --repair' to rebuild the counter."),
        ("; a store holds only regular files and real folders. Move it away (the doctor lists such entries).",
         "; hkctl uses only regular files and real folders in a store. Move it away (hkctl doctor lists such entries)."),
        ("; put it back, or open the store at its new place.", "; put it back, or point --store or $HKCTL_STORE at its new place."),
        ("' is not a store (it has other files", "' is not an hkctl store (it has other files"),
        (": another process held its lock", ": another hkctl held its lock"),
        ("which no version of HealthCore writes; this version reads", "which no hkctl writes; this hkctl reads"),
        ("this version of HealthCore knows versions 1 and 2 (a newer version may have written it: finish it with that version)",
         "this hkctl knows versions 1 and 2 (a newer hkctl may have written it: finish it with that hkctl)"),
        (", so the store did not make it (", ", so hkctl did not make it ("),
        ("; the store never ", "; hkctl never "),
        ("; open it as its owner, or give it to yourself with chown", "; run hkctl as its owner, or give it to yourself with chown"),
        ("it appeared while the store was creating it", "it appeared while hkctl was creating it"),
    ] + versionWords

    /// The doctor's own words for its findings; `uuid` is the finding's sample.
    private static func findingRemedies(uuid: UUID?) -> [(String, String)] {
        [("not a file the store writes;", "not a file hkctl writes;"),
         ("(or the doctor's repair)", "(or --repair)"),
         (", the doctor's repair moves it aside", ", --repair moves it aside"),
         ("; an undo fails until it is repaired (", "; 'hkctl undo' fails until it is repaired ("),
         ("(the doctor's repair quarantines the line", "('hkctl doctor --repair' quarantines the line"),
         ("the doctor's repair rebuilds it", "'hkctl doctor --repair' rebuilds it"),
         ("; reads of this file fail until it is repaired (", "; commands that read this file fail until it is repaired ("),
         ("; every read of it fails until it is moved away", "; every command that reads it fails until it is moved away"),
         ("; no writer stores it,", "; no command stores it,"),
         ("(correct it, or delete the sample)", "(correct it, or 'hkctl delete \(uuid?.lowercasedText ?? "UUID")')"),
         ("; the store refuses every use of it.", "; every command that uses it refuses (exit 77)."),
         ("; until then the store refuses every use of it", "; until then every command that uses it refuses (exit 77)"),
         ("(the doctor does not rebuild it)", "(hkctl does not rebuild it)"),
         ("; reading the settings (preferred units) fails until", "; config, today and the commands that show display units fail until"),
         ("; reading the goals fails until", "; today, goal and chart fail until"),
         ("; reading the characteristics, imports and exports fail until", "; me, import and export fail until"),
         ("; statistics and the source priorities fail until", "; stats, today, chart, trend and sources fail until"),
         ("; authorization, and every use of the store by a source other than the owner, fail until",
          "; auth and every command another source runs fail until"),
         ("; push tokens can be neither made, listed nor checked (every push is refused) until",
          "; hkctl serve refuses every push and 'serve token' fails until"),
         ("; changes(since:) then accepts anchors", "; changes then accepts anchors")]
    }

    /// `hkctl auth grant SOURCE --share TYPES --read TYPES` (or `deny`), quoted for a shell.
    private static func grant(_ verb: String, _ source: String, share: [String], read: [String]) -> String {
        var command = "hkctl auth \(verb) " + ShellQuoting.quote(source)
        if !share.isEmpty { command += " --share " + ShellQuoting.quote(share.joined(separator: ",")) }
        if !read.isEmpty { command += " --read " + ShellQuoting.quote(read.joined(separator: ",")) }
        return command
    }
}
