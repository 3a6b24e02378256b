import HealthCore

/// A uuid on the command line: a whole uuid, or git-style a unique prefix of at least 8 hexadecimal digits.
enum UUIDArgument {
    /// Whether `text` could name a sample by uuid (a whole uuid or a prefix), rather than a type.
    static func looksLikeUUID(_ text: String) -> Bool {
        UUID(uuidString: text) != nil || UUIDPrefix(text) != nil
    }

    /// The uuids `texts` name. A prefix must start exactly one uuid among the samples `access` may see.
    ///
    /// - Throws: ``UUIDPrefixError`` for a word that is no uuid, a prefix that matches none or several.
    static func resolve(_ texts: [String], store: JSONFileStore, access: HealthStore) throws -> [UUID] {
        try texts.map { text in
            if let uuid = UUID(uuidString: text) { return uuid }
            guard let prefix = UUIDPrefix(text) else { throw UUIDPrefixError.notAUUID(text) }
            let visible = try store.samples(withUUIDPrefix: prefix, limit: .max).filter { sample in
                try access.readsEverything(ofType: sample.typeIdentifier) || sample.source == access.source
            }
            guard let only = visible.first else { throw UUIDPrefixError.noMatch(text) }
            guard visible.count == 1 else {
                throw UUIDPrefixError.ambiguous(text, candidates: Array(visible.prefix(UUIDPrefixError.shownCandidates).map(\.uuid)))
            }
            return only.uuid
        }
    }
}
