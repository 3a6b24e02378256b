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
}
