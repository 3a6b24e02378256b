extension JSONFileStore {
    /// The source priority lists stored in ``SourcePriorities/documentName`` (empty if none were set).
    ///
    /// - Throws: ``StoreError/corrupt(_:line:reason:)`` when the document is not valid or too new.
    public func sourcePriorities() throws -> SourcePriorities {
        try document(SourcePriorities.documentName, default: SourcePriorities())
    }

    /// Stores `priority` for the type with this identifier (an empty list goes back to the default order).
    ///
    /// - Throws: Store errors when the document cannot be read or written.
    public func setSourcePriority(_ priority: SourcePriority, for typeIdentifier: String) throws {
        try updateDocument(SourcePriorities.documentName, initial: SourcePriorities()) {
            $0.set(priority, for: typeIdentifier)
        }
    }
}
