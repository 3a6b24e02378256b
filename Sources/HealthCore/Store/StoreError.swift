import TextSupport

/// Errors from opening, reading and writing a store.
public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// The store folder could not be created; payload: path and the system's reason.
    case cannotCreate(String, reason: String)
    /// The folder exists, is not empty and holds no store marker (`hkctl-store.json`).
    case notAStore(String)
    /// The store path names a file, not a folder.
    case notAFolder(String)
    /// A file of the store could not be read; payload: path and reason.
    case readFailed(String, reason: String)
    /// A file of the store could not be written; payload: path and reason.
    case writeFailed(String, reason: String)
    /// Another process held the store's lock for longer than the wait; `holders` are the ids of the
    /// processes holding it, when the system tells.
    case busy(String, waitedSeconds: Double, holders: [Int32] = [])
    /// A line in the middle of a store file is not a valid sample.
    case corrupt(String, line: Int, reason: String)
    /// The store was written by a newer version of the library.
    case newerVersion(found: Int, supported: Int)
    /// The store marker file is unreadable.
    case badMarker(String)
    /// The store marker names a format version no version writes (zero, negative, fractional).
    case unknownVersion(String, found: String)
    /// The store marker names another format than `hkctl-store` (or none); payload: path and the format found.
    case unknownFormat(String, found: String?)
    /// A path the store will not use: a symbolic link inside the store or a loop, a store owned by another user, a store
    /// folder (or a folder inside it) that others can write to; payload: path and why.
    case unsafe(String, reason: String)
    /// A file or folder inside the store belongs to another user than the store's owner, so the store did not make it
    /// (another user may have planted it while the folder was open to others); payload: its path, its owner's user id
    /// and the store owner's.
    case foreignOwner(String, owner: UInt32, storeOwner: UInt32)
    /// The next change numbers would pass the largest one readers accept (``ChangeNumbers/maximum``); payload: the
    /// counter file and the last number it holds.
    case changeNumbersExhausted(String, last: UInt64)
    /// The change counter is behind numbers already used in the store, so a write would reuse them; payload: the
    /// counter file, its value and the larger number found.
    case counterBehind(String, counter: UInt64, used: UInt64)
    /// An entry of the store is not what belongs there (a FIFO, device, socket or folder where a file belongs, a file
    /// where a folder belongs); payload: path and what it is, in words.
    case notAFile(String, kind: String)
    /// ``HealthStore/init()`` found no per-user folder: neither `XDG_DATA_HOME` nor `HOME` is set.
    case noDefaultLocation
    /// A document name that is not a plain `NAME.json` of the store's own documents (a path, a hidden file, the
    /// store's marker); payload: the name.
    case notADocument(String)
    /// A new store would be made on the bare folder of a disk that is not mounted: its path lies under a mount point
    /// `/etc/fstab` names and nothing is mounted there, so what it stored would be hidden once the disk is mounted
    /// again; payload: the store path and the mount point.
    case notMounted(String, mountPoint: String)
    /// The store folder a long-running reader was following (``JSONFileStore/changes(since:types:limit:)`` after a
    /// change, as a watcher asks) is gone: moved, removed or emptied; payload: its path.
    case disappeared(String)

    public var description: String {
        switch self {
        case let .cannotCreate(path, reason):
            return "Cannot create the store at '\(path)': \(reason); open the store in another folder."
        case let .notMounted(path, mountPoint):
            let start = "No store at '\(path)', and '\(mountPoint)', which /etc/fstab names as a mount point, has nothing "
                + "mounted on it (a disk missing?): a store made there would be hidden once the disk is back; mount it "
                + "and try again"
            // The bare mount point itself is never a new store: the folder exists, and making it changes nothing.
            if MountTable.resolvedPath(path) == mountPoint { return start + ", or open a store in a folder inside it." }
            return start + ", or, to keep a new store on the folder beneath, create it first: mkdir -p -m 700 "
                + ShellQuoting.quote(path)
        case let .notAStore(path):
            return "'\(path)' is not a store (it has other files and no hkctl-store.json); open the store in an empty or new folder."
        case let .notAFolder(path):
            return "'\(path)' is a file, not a folder; open the store in a folder (it is created if missing)."
        case let .readFailed(path, reason):
            return "Cannot read '\(path)': \(reason)."
        case let .writeFailed(path, reason):
            return "Cannot write '\(path)': \(reason); nothing was saved."
        case let .busy(path, waited, holders):
            let who = holders.isEmpty ? "another process" : "process " + holders.map(String.init).joined(separator: ", ")
            return "The store '\(path)' is busy: \(who) held its lock for \(NumberFormatting.human(waited, fractionDigits: 1)) s; try again, or wait longer for the lock."
        case let .corrupt(path, line, reason):
            return "The store file '\(path)' is corrupt at line \(line): \(reason); move that line out of the file to go on (see docs/STORE.md)."
        case let .newerVersion(found, supported):
            return "The store's marker hkctl-store.json (line 1) says format version \(found), newer than the version \(supported) this version of HealthCore supports; upgrade HealthCore (nothing was changed)."
        case let .badMarker(path):
            return "The store marker '\(path)' is not valid JSON; see docs/STORE.md to repair it."
        case let .unknownVersion(path, found):
            return "The store marker '\(path)' (line 1) names format version \(found), which no version of HealthCore writes; this version reads version \(JSONFileStore.formatVersion). Nothing was changed; see docs/STORE.md."
        case let .unknownFormat(path, found):
            let named = found.map { "names format '\($0)'" } ?? "names no format"
            return "The store marker '\(path)' (line 1) \(named); this version of HealthCore reads only format '\(JSONFileStore.formatName)' version \(JSONFileStore.formatVersion). Nothing was changed; see docs/STORE.md."
        case let .unsafe(path, reason):
            return "Refusing to use '\(path)': \(reason)."
        case let .foreignOwner(path, owner, storeOwner):
            let quoted = ShellQuoting.quote(path)
            return "Refusing to use '\(path)': it belongs to user id \(owner), not to the store's owner (user id \(storeOwner)), "
                + "so the store did not make it (another user may have put it there while the folder was open to others). "
                + "Look at it, then remove it (rm -r \(quoted)) or, if it is yours, give it back (chown -R \(storeOwner) \(quoted))."
        case let .changeNumbersExhausted(path, last):
            return "The change counter '\(path)' is at \(last), and change numbers end at \(ChangeNumbers.maximum); nothing was saved. If the counter was edited, the doctor's repair (StoreDoctor.repair) rebuilds it from the numbers in use."
        case let .counterBehind(path, counter, used):
            return "The change counter '\(path)' says \(counter), but change number \(used) is already in use, so new changes would reuse numbers; nothing was saved. The doctor's repair (StoreDoctor.repair) rebuilds the counter."
        case let .notAFile(path, kind):
            return "'\(path)' is \(kind); a store holds only regular files and real folders. Move it away (the doctor lists such entries)."
        case .noDefaultLocation:
            return "There is no per-user data folder: neither XDG_DATA_HOME nor HOME is set; set one, or open the store with HealthStore(directory:)."
        case let .notADocument(name):
            return "'\(name)' is not a document name: a document is a plain NAME.json file of the store folder (letters, "
                + "digits, '-', '_', '.'), and the store's own files (\(JSONFileStore.storeOwnedDocuments.sorted().joined(separator: ", "))) are not documents."
        case let .disappeared(path):
            return "The store '\(path)' disappeared (its folder was moved, removed or emptied); put it back, or open the store at its new place."
        }
    }

    public var errorDescription: String? { description }
}
