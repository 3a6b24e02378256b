#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TextSupport

/// What the last import of a folder of Health Auto Export files found in it, so that importing the same folder again
/// into a store that has not changed since reads nothing (docs/IMPORT.md, "A folder imported again").
///
/// The record names the folder (its real path), the options the import ran with, every file's identity as it was
/// before the import read it (name, device, inode, size, modification and status-change times: a file written again
/// differs in at least its status-change time, which no program can set) and the store's change number after the
/// import. When the folder holds exactly those files, the options are the same and the store's change number is
/// still that one (no sample was added, deleted or replaced since, by anyone), reading the files again would plan
/// the same points against the same samples and store nothing: the import reads none. Anything else reads every
/// file, as a folder with one file written again must: a point the new file no longer sends is another file's again.
/// The record is a cache in `derived/`: without it (deleted, unreadable, another folder) every file is read.
struct FolderImportRecord: Equatable, Sendable {
    /// A file of the folder as the import found it.
    struct File: Equatable, Sendable {
        var name: String
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modified: [Int64]
        var changed: [Int64]

        /// The file `info` describes, named `name`.
        init(name: String, info: stat) {
            self.name = name
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            let modification = POSIXFile.modificationTime(info)
            modified = [modification.seconds, modification.nanoseconds]
            #if canImport(Darwin)
            changed = [Int64(info.st_ctimespec.tv_sec), Int64(info.st_ctimespec.tv_nsec)]
            #else
            changed = [Int64(info.st_ctim.tv_sec), Int64(info.st_ctim.tv_nsec)]
            #endif
        }

        init(name: String, device: UInt64, inode: UInt64, size: Int64, modified: [Int64], changed: [Int64]) {
            self.name = name
            self.device = device
            self.inode = inode
            self.size = size
            self.modified = modified
            self.changed = changed
        }

        /// The file at `path` as it is now, or nil when it cannot be read.
        init?(name: String, path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            self.init(name: name, info: info)
        }
    }

    /// The folder's real path.
    var folder: String
    /// The options that shape what the import stores (zone, acting source).
    var options: String
    /// The store's change number after the import.
    var changeNumber: UInt64
    var files: [File]

    /// The folder at `path` as its record names it: its real path (links resolved), or `path` when that fails.
    static func realPath(of path: String) -> String {
        guard let real = realpath(path, nil) else { return path }
        defer { free(real) }
        return String(cString: real)
    }

    /// Whether `files` (the folder's files now, in name order, each with its identity when it could be read) are the
    /// files this record found.
    func holdsUnchanged(_ files: [File?]) -> Bool {
        files.count == self.files.count && zip(files, self.files).allSatisfy { $0 == $1 }
    }
}

/// The store's folder-import records, the most recently written first: `derived/folder-imports.txt`.
///
/// Text, a token per field (numbers in decimal, names as JSON strings), so that any file name is kept exactly:
/// `hkctl-folder-imports 1`, then per folder a line `folder PATH OPTIONS CHANGE-NUMBER` and a line `file NAME DEVICE
/// INODE SIZE SECONDS NANOSECONDS SECONDS NANOSECONDS` per file, and `end`: records cut short (the file is a cache,
/// written without a sync) are not records.
struct FolderImportRecords: Equatable, Sendable {
    /// The file's place in the store.
    static let file = "derived/folder-imports.txt"
    /// How many folders keep a record.
    static let limit = 16
    private static let header = "hkctl-folder-imports 1"

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
                      case .word(let number) = tokens[3], let changeNumber = UInt64(number) else { return nil }
                folders.append(FolderImportRecord(folder: folder, options: options, changeNumber: changeNumber, files: []))
            case (.word("file"), 9):
                guard !folders.isEmpty, case .text(let name) = tokens[1], case .word(let device) = tokens[2],
                      case .word(let inode) = tokens[3], let device = UInt64(device), let inode = UInt64(inode),
                      let rest = Self.numbers(tokens[4...]) else { return nil }
                folders[folders.count - 1].files.append(FolderImportRecord.File(
                    name: name, device: device, inode: inode, size: rest[0], modified: [rest[1], rest[2]],
                    changed: [rest[3], rest[4]]))
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
            text += "folder \(JSONText.quoted(record.folder)) \(JSONText.quoted(record.options)) \(record.changeNumber)\n"
            for file in record.files {
                text += "file \(JSONText.quoted(file.name)) \(file.device) \(file.inode) \(file.size) "
                    + (file.modified + file.changed).map(String.init).joined(separator: " ") + "\n"
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

    /// The tokens as whole numbers, or nil.
    private static func numbers(_ tokens: ArraySlice<Token>) -> [Int64]? {
        var numbers: [Int64] = []
        for token in tokens {
            guard case .word(let word) = token, let number = Int64(word) else { return nil }
            numbers.append(number)
        }
        return numbers
    }
}
