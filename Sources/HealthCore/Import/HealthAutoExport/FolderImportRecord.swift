#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TextSupport

/// What an import of a folder of Health Auto Export files that stored nothing found, so that importing the same
/// folder again reads nothing while nothing changed (docs/IMPORT.md, "A folder imported again").
///
/// An import is deterministic: the same files, read with the same options into the same store, plan the same points
/// against the same samples. When such an import stored nothing (the store's sample files were the same after it as
/// before), the same import again would store nothing too. The record keeps what that import depended on: the
/// folder (its real path), the options (the zone's rules, not just its name), every file's name, size and a 64-bit
/// FNV-1a digest of its bytes, and a fingerprint of the store's sample files (every partition's and tombstone file's
/// name, device, inode, size and modification time, with the change number). An import that finds all of these as
/// recorded reads nothing. An import that stores something keeps no record: the next one reads every file, and if
/// it stores nothing, it records; so a folder is skipped only once an import of it changed nothing (the first
/// import of a folder is not always a fixed point: a second read can still store something). The record is a
/// cache in `derived/`: without it (deleted, unreadable, another folder) every file is read.
struct FolderImportRecord: Equatable, Sendable {
    /// A file of the folder as the import found it.
    struct File: Equatable, Sendable {
        var name: String
        var size: Int64
        /// FNV-1a (64 bits) of the file's bytes.
        var digest: UInt64

        /// The file at `path` as it is now (read whole), or nil when it cannot be read.
        init?(name: String, path: String) {
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return nil }
            defer { close(fd) }
            var digest = FNV1a()
            var size: Int64 = 0
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count >= 0 else { return nil }
                if count == 0 { break }
                size += Int64(count)
                chunk.withUnsafeBufferPointer { digest.addBytes(UnsafeBufferPointer(rebasing: $0[0..<count])) }
            }
            self.init(name: name, size: size, digest: digest.value)
        }

        init(name: String, size: Int64, digest: UInt64) {
            self.name = name
            self.size = size
            self.digest = digest
        }
    }

    /// The folder's real path.
    var folder: String
    /// The options that shape what the import stores (the zone's rules).
    var options: String
    /// The store's sample files and change number (``JSONFileStore/sampleFilesFingerprint()``).
    var store: UInt64
    var files: [File]

    /// The folder at `path` as its record names it: its real path (links resolved), or nil when it has none.
    static func realPath(of path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }

    /// The options of an import in `zone`: its name and a digest of its rules (a zone file changed under the same
    /// name, or a `TZ` naming a file, is another zone).
    static func options(zone: ZoneRules) -> String {
        var digest = FNV1a()
        for transition in zone.transitions { digest.addNumber(UInt64(bitPattern: transition)) }
        for offset in zone.offsetsAfter { digest.addNumber(UInt64(bitPattern: Int64(offset))) }
        digest.addNumber(UInt64(bitPattern: Int64(zone.initialOffset)))
        digest.addText(String(describing: zone.rule))
        return "zone=\(zone.identifier)#\(String(digest.value, radix: 16))"
    }

    /// Whether `files` (the folder's files now, in name order; nil where one could not be read) are the files this
    /// record found.
    func holdsUnchanged(_ files: [File?]) -> Bool {
        files.count == self.files.count && zip(files, self.files).allSatisfy { $0 == $1 }
    }
}

/// The store's folder-import records, the most recently written first: `derived/folder-imports.txt`.
///
/// Text, a token per field (numbers in decimal, names as JSON strings), so that any file name is kept exactly:
/// `hkctl-folder-imports 2`, then per folder a line `folder PATH OPTIONS STORE` and a line `file NAME SIZE DIGEST` per
/// file, and `end`: records cut short (the file is a cache, written without a sync) are not records.
struct FolderImportRecords: Equatable, Sendable {
    /// The file's place in the store.
    static let file = "derived/folder-imports.txt"
    /// How many folders keep a record.
    static let limit = 16
    private static let header = "hkctl-folder-imports 2"

    var folders: [FolderImportRecord] = []

    init() {}

    /// The records in `bytes`, or nil when they are not records of this version.
    init?(bytes: [UInt8]) {
        let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        guard lines.count >= 2, Array(lines[0]) == Array(Self.header.utf8) else { return nil }
        var folders: [FolderImportRecord] = []
        for line in lines.dropFirst() {
            guard let tokens = Self.tokens(Array(line)), let kind = tokens.first else { return nil }
            switch (kind, tokens.count) {
            case (.word("end"), 1):
                self.folders = folders
                return
            case (.word("folder"), 4):
                guard case .text(let folder) = tokens[1], case .text(let options) = tokens[2],
                      case .word(let number) = tokens[3], let store = UInt64(number) else { return nil }
                folders.append(FolderImportRecord(folder: folder, options: options, store: store, files: []))
            case (.word("file"), 4):
                guard !folders.isEmpty, case .text(let name) = tokens[1], case .word(let size) = tokens[2],
                      case .word(let digest) = tokens[3], let size = Int64(size), let digest = UInt64(digest) else { return nil }
                folders[folders.count - 1].files.append(FolderImportRecord.File(name: name, size: size, digest: digest))
            default:
                return nil
            }
        }
        return nil
    }

    /// Keeps `record` first, in place of any record of its folder, and at most ``limit`` records.
    mutating func keep(_ record: FolderImportRecord) {
        folders.removeAll { $0.folder == record.folder }
        folders.insert(record, at: 0)
        if folders.count > Self.limit { folders.removeLast(folders.count - Self.limit) }
    }

    var bytes: [UInt8] {
        var text = Self.header + "\n"
        for record in folders {
            text += "folder \(JSONText.quoted(record.folder)) \(JSONText.quoted(record.options)) \(record.store)\n"
            for file in record.files {
                text += "file \(JSONText.quoted(file.name)) \(file.size) \(file.digest)\n"
            }
        }
        return Array((text + "end\n").utf8)
    }

    private enum Token: Equatable {
        case word(String)
        case text(String)
    }

    /// A line's tokens: JSON strings, and words between spaces; nil when a string is not valid JSON.
    private static func tokens(_ line: [UInt8]) -> [Token]? {
        line.withUnsafeBufferPointer { buffer -> [Token]? in
            var tokens: [Token] = []
            var index = 0
            while index < buffer.count {
                if buffer[index] == 0x20 {
                    index += 1
                } else if buffer[index] == 0x22 {
                    var scanner = JSONLineScanner(UnsafeBufferPointer(rebasing: buffer[index...]))
                    guard let text = try? scanner.readString() else { return nil }
                    tokens.append(.text(text))
                    index += scanner.index
                } else {
                    let start = index
                    while index < buffer.count, buffer[index] != 0x20 { index += 1 }
                    tokens.append(.word(String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<index]), as: UTF8.self)))
                }
            }
            return tokens
        }
    }
}
