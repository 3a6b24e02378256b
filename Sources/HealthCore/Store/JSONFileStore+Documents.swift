extension JSONFileStore {
    /// Reads a small JSON document of the store (`settings.json`, `characteristics.json`), or the default
    /// value when it does not exist yet.
    ///
    /// - Throws: ``StoreError/corrupt(_:line:reason:)`` when the file is not valid.
    public func document<T: Decodable>(_ name: String, default value: T) throws -> T {
        guard try isExistingStore(), let bytes = try POSIXFile.readFile(path + "/" + name) else { return value }
        do {
            return try JSONDecoder().decode(T.self, from: Data(bytes))
        } catch {
            throw StoreError.corrupt(path + "/" + name, line: 1, reason: "it is not a valid \(name) document")
        }
    }

    /// Changes a small JSON document atomically under the store's exclusive lock.
    ///
    /// - Parameters:
    ///   - name: The file name in the store folder.
    ///   - initial: The value when the document does not exist yet.
    ///   - change: Edits the value; if it throws, nothing is written.
    public func updateDocument<T: Codable>(_ name: String, initial: T, _ change: (inout T) throws -> Void) throws {
        var value = try document(name, default: initial)
        try change(&value)
        try withWriteAccess {
            // Re-read under the lock so a concurrent change is not lost.
            value = try document(name, default: initial)
            try change(&value)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
            try POSIXFile.writeAtomically(Array(try encoder.encode(value)) + [0x0A], to: path + "/" + name)
        }
    }
}
