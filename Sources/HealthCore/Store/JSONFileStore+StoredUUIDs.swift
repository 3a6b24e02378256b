#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TextSupport

extension JSONFileStore {
    /// Throws ``SampleError/uuidInStore(_:)`` when a sample's uuid is already used where that sample would be kept:
    /// by a line of its type in the file it would be appended to (the same type and month, or the type's long
    /// samples), or by a deletion of its type that is still kept (compaction drops old ones). Saving a sample twice (a
    /// fetched sample saved again) would otherwise count it twice in every statistic; saving a deleted one would
    /// bring back a uuid that HealthKit never revives. A uuid reused with other dates in another month, or for
    /// another type, is not looked for: that would mean reading every file of the store on every save.
    ///
    /// Every store line starts with `{"uuid":"<lowercase uuid>"`, so a file is searched for that text at the start
    /// of a line rather than decoded: a save into a month of heart-rate readings stays a fast byte search. Call with
    /// the exclusive lock held, so that no other process adds the uuid between this check and the write.
    func refuseStoredUUIDs(_ samples: [Sample]) throws {
        var namer = PartitionNamer()
        var byFile: [String: [UUID]] = [:]
        var order: [String] = []
        func want(_ uuid: UUID, in file: String) {
            if byFile[file] == nil { order.append(file) }
            byFile[file, default: []].append(uuid)
        }
        for sample in samples {
            want(sample.uuid, in: namer.path(for: sample))
            want(sample.uuid, in: JSONFileStore.tombstonePath(sample.typeIdentifier))
        }
        for file in order {
            let path = try storeFile(file)
            guard let (fd, info) = try POSIXFile.openRegular(path, flags: O_RDONLY) else { continue }
            defer { close(fd) }
            guard info.st_size > 0 else { continue }
            let wanted = byFile[file] ?? []
            let scanner = UUIDLineScanner(wanted, chunkSize: min(64 * 1024, Int(info.st_size) + 1))
            let found = try scanner.firstMatch { try POSIXFile.readSome(fd, into: $0, path: path) }
            if let found { throw SampleError.uuidInStore(wanted[found].lowercasedText) }
        }
    }
}
