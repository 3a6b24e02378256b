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
            throw StoreError.corrupt(path + "/" + name, line: 1,
                                     reason: "it is not a valid \(name) document: \(Self.decodingReason(error))")
        }
    }

    /// What a decoder found wrong, in words: where in the document, and what.
    static func decodingReason(_ error: Error) -> String {
        func place(_ path: [CodingKey]) -> String {
            guard !path.isEmpty else { return "the document" }
            return "'" + path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".") + "'"
        }
        func kind(_ type: Any.Type) -> String {
            switch type {
            case is String.Type: return "a string"
            case is Double.Type, is Int.Type, is UInt64.Type, is Int64.Type: return "a number"
            case is Bool.Type: return "true or false"
            default:
                let name = "\(type)"
                if name.hasPrefix("Dictionary") { return "an object" }
                if name.hasPrefix("Array") { return "a list" }
                return "a valid value"
            }
        }
        guard let error = error as? DecodingError else { return "\(error)" }
        switch error {
        case let .typeMismatch(type, context):
            return "\(place(context.codingPath)) is not \(kind(type))"
        case let .valueNotFound(type, context):
            return "\(place(context.codingPath)) is null, not \(kind(type))"
        case let .keyNotFound(key, context):
            return "\(place(context.codingPath + [key])) is missing"
        case let .dataCorrupted(context):
            return context.codingPath.isEmpty ? "it is not valid JSON"
                : "\(place(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
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

    /// The store's own JSON files, which only the store writes: its marker, the record of what compaction dropped,
    /// and the push tokens' digests (``createPushToken(for:now:)``). (A list: a set of three cost every command that
    /// reads a document 13,000 instructions to build.)
    static let storeOwnedDocuments = ["hkctl-store.json", "compaction.json", PushTokens.fileName]

    /// Refuses the permissions file, the store's own files, and any name that is not a plain `NAME.json` in the store
    /// folder (a path, a hidden file, another extension): through the public document API a client could otherwise
    /// overwrite the store's marker, its change counter or its lock, or reach the permissions file by another spelling.
    private static func refusePrivate(_ name: String) throws {
        let plain = name.hasSuffix(".json") && name.utf8.count > 5 && !name.hasPrefix(".")
            && name.utf8.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
            }
        if name == AuthorizationRecord.fileName { throw AuthorizationError.privateDocument(name) }
        guard plain, !storeOwnedDocuments.contains(name) else { throw StoreError.notADocument(name) }
    }
}
