#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The records of folder imports a store keeps (``FolderImportRecord``): a cache, read and written without the
/// store's lock, that is ignored when it cannot be read and not kept when it cannot be written.
extension JSONFileStore {
    /// The record of the last import of the folder at `folder` (a real path), or nil.
    func folderImportRecord(folder: String) -> FolderImportRecord? {
        guard let bytes = try? POSIXFile.readFile(path + "/" + FolderImportRecords.file),
              let records = FolderImportRecords(bytes: bytes) else { return nil }
        return records.folders.first { $0.folder == folder }
    }

    /// Keeps `record` in place of any earlier record of its folder.
    func keepFolderImportRecord(_ record: FolderImportRecord) {
        var records = ((try? POSIXFile.readFile(path + "/" + FolderImportRecords.file)) ?? nil)
            .flatMap(FolderImportRecords.init(bytes:)) ?? FolderImportRecords()
        records.keep(record)
        SummaryAccess.saveDerived(records.bytes, as: FolderImportRecords.file, in: path)
    }

    /// A fingerprint of the store's samples: every regular file in a type's folder (partitions and tombstones), by name,
    /// with its device, inode, size and modification time, and the change number. Any write of samples (an add, an
    /// import, a delete, an undo, a compaction, a repair, an edit by hand) changes it.
    func sampleFilesFingerprint() throws -> UInt64 {
        var digest = FNV1a()
        digest.addNumber(try currentAnchor().sequence)
        for type in try sortedEntries("samples") {
            digest.addText(type)
            for name in try sortedEntries("samples/" + type) {
                var info = stat()
                guard lstat(path + "/samples/" + type + "/" + name, &info) == 0 else { continue }
                let identity = FileIdentity(info)
                digest.addText(name)
                digest.addNumber(identity.device)
                digest.addNumber(identity.inode)
                digest.addNumber(UInt64(bitPattern: identity.size))
                digest.addNumber(UInt64(bitPattern: identity.seconds))
                digest.addNumber(UInt64(bitPattern: identity.nanoseconds))
            }
        }
        return digest.value
    }

    /// The entries of the store's folder `relative` (``folderEntries(_:)``), in byte order: one order whatever the
    /// file system's.
    private func sortedEntries(_ relative: String) throws -> [String] {
        try folderEntries(relative).sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }
}
