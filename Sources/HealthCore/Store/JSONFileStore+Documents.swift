extension JSONFileStore {
    /// Reads a small JSON document of the store (`settings.json`, `characteristics.json`), or the default
    /// value when it does not exist yet.
    ///
    /// - Throws: ``StoreError/corrupt(_:line:reason:)`` when the file is not valid.
    /// - Throws: ``AuthorizationError/privateDocument(_:)`` for `authorization.json`, which only the authorization
    ///   API of ``HealthStore`` reads and changes.
    public func document<T: Decodable>(_ name: String, default value: T) throws -> T {
        try Self.refusePrivate(name)
        return try privateDocument(name, default: value)
    }

    /// ``document(_:default:)`` for any document, the private ones included.
    func privateDocument<T: Decodable>(_ name: String, default value: T) throws -> T {
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
    /// - Throws: ``AuthorizationError/privateDocument(_:)`` for `authorization.json`.
    public func updateDocument<T: Codable>(_ name: String, initial: T, _ change: (inout T) throws -> Void) throws {
        try Self.refusePrivate(name)
        try updatePrivateDocument(name, initial: initial, change)
    }

    /// ``updateDocument(_:initial:_:)`` for any document, the private ones included.
    func updatePrivateDocument<T: Codable>(_ name: String, initial: T, _ change: (inout T) throws -> Void) throws {
        var value = try privateDocument(name, default: initial)
        try change(&value)
        try withWriteAccess {
            // Re-read under the lock so a concurrent change is not lost.
            value = try privateDocument(name, default: initial)
            try change(&value)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
            try POSIXFile.writeAtomically(Array(try encoder.encode(value)) + [0x0A], to: path + "/" + name)
        }
    }

    private static func refusePrivate(_ name: String) throws {
        if name == AuthorizationRecord.fileName { throw AuthorizationError.privateDocument(name) }
    }
}
