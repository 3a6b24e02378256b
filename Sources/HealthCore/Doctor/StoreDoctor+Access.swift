#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TextSupport

/// Who owns the store's files and folders, and who else may use them: the doctor lists what the store refuses (a file or
/// folder of another user, a folder others can write to) and files others may read or write.
extension StoreDoctor {
    /// A file or folder that the store refuses, and the error it refuses it with.
    struct RefusedEntry {
        /// The path relative to the store.
        var file: String
        var error: StoreError
    }

    /// Walks the store without following links (its top level, `samples/`, each type's folder and `recovered/`) and
    /// reports every entry of another user and every folder others can write to (errors: the store refuses them with
    /// ``StoreError/foreignOwner(_:owner:storeOwner:)`` or ``StoreError/unsafe(_:reason:)``), and every file others may read or write (a warning). The store folder itself was checked when the
    /// store was opened.
    ///
    /// - Returns: What the store refuses, for ``scan`` to leave alone and ``repair(now:)`` to refuse.
    func checkAccess(into report: inout DoctorReport) -> [RefusedEntry] {
        var refused: [RefusedEntry] = []
        let owner = geteuid()
        func visit(_ relative: String) {
            let full = store.path + "/" + relative
            var info = stat()
            guard lstat(full, &info) == 0 else { return }
            var accepted = true
            do {
                try StoreSafety.checkEntry(full, info, userID: owner)
            } catch {
                let error = error as? StoreError ?? .readFailed(full, reason: "\(error)")
                refused.append(RefusedEntry(file: relative, error: error))
                report.findings.append(DoctorFinding(.error, file: relative, message: Self.refusal(error, of: full)))
                accepted = false
            }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                // What is inside a refused folder is listed too (doctor only looks), so one run shows everything.
                let parent = PathText.parent(of: relative)
                guard relative == "samples" || relative == "recovered" || parent == "samples" else { return }
                for name in Self.entries(of: full) { visit(relative + "/" + name) }
            case S_IFREG where accepted && info.st_mode & 0o077 != 0:
                let read = info.st_mode & 0o044 != 0, write = info.st_mode & 0o022 != 0
                let may = read && write ? "read and write it" : write ? "write to it" : read ? "read it" : "run it"
                report.findings.append(DoctorFinding(.warning, file: relative,
                    message: "others may \(may) (mode \(String(info.st_mode & 0o7777, radix: 8))); run: chmod 600 "
                        + ShellQuoting.quote(full)))
            default:
                return
            }
        }
        for name in Self.entries(of: store.path) { visit(name) }
        return refused
    }

    /// The finding for an entry the store refuses.
    private static func refusal(_ error: StoreError, of path: String) -> String {
        switch error {
        case let .foreignOwner(_, owner, storeOwner):
            let quoted = ShellQuoting.quote(path)
            return "it belongs to user id \(owner), not to the store's owner (user id \(storeOwner)), so the store did not make "
                + "it (another user may have put it there); the store refuses every use of it. Look at it, "
                + "then remove it (rm -r \(quoted)) or, if it is yours, give it back (chown -R \(storeOwner) \(quoted))"
        case let .unsafe(_, reason):
            return reason + "; until then the store refuses every use of it"
        default:
            return error.description
        }
    }

    /// The names in a folder, sorted; none when it cannot be listed.
    private static func entries(of folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }
}
