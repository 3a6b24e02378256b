/// What a store holds, found without reading samples: its types, and for the on-disk store the months that
/// have partitions.
///
/// The ``SampleStore`` protocol has no listing call, so for ``JSONFileStore`` this reads its folder layout
/// (`samples/<type>/<YYYY-MM>.jsonl`, see docs/STORE.md); an ``InMemorySampleStore`` is asked directly.
enum StoreContents {
    /// The type identifiers with samples, sorted.
    ///
    /// - Throws: The store's error when its folders cannot be listed (an export must never look complete when it
    ///   is not).
    static func typeIdentifiers(in store: SampleStore) throws -> [String] {
        if let memory = store as? InMemorySampleStore {
            return Set(memory.allSamples.map(\.typeIdentifier)).sorted()
        }
        guard let fileStore = store as? JSONFileStore, try fileStore.isExistingStore() else { return [] }
        return try fileStore.typeIdentifiersOnDisk().sorted()
    }

    /// For an on-disk store: the months (as counted by ``IdentityIndex/month(of:)``) with a partition of the
    /// type, sorted, and whether it has a `long.jsonl`; nil for other stores.
    ///
    /// - Throws: The store's error when the type's folder cannot be listed.
    static func months(ofType identifier: String, in store: SampleStore) throws -> (months: [Int], hasLong: Bool)? {
        guard let fileStore = store as? JSONFileStore else { return nil }
        let names = try fileStore.folderEntries(JSONFileStore.typeFolder(identifier))
        var months: [Int] = []
        var hasLong = false
        for name in names where name.hasSuffix(".jsonl") {
            if name == "long.jsonl" { hasLong = true; continue }
            let stem = Array(name.dropLast(6).utf8)
            guard stem.count == 7, stem[4] == UInt8(ascii: "-"),
                  let year = Int(String(decoding: stem[0..<4], as: UTF8.self)),
                  let month = Int(String(decoding: stem[5..<7], as: UTF8.self)), (1...12).contains(month) else { continue }
            months.append(year * 12 + month - 1)
        }
        return (months.sorted(), hasLong)
    }
}
