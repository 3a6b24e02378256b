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
        default:
            return "\(error)"
        }
    }
}
