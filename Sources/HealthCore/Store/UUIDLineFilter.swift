/// Which lines of a partition may hold a sample whose uuid is looked for, judged from the line's first bytes without
/// decoding it. hkctl writes every line as `{"uuid":"<lowercase uuid>"…` (``SampleLineCodec``), so a line that starts
/// with that key and a plain uuid that none of the texts looked for begins cannot hold one. A line that starts any
/// other way (written by hand or by another program: another key first, escapes in the uuid) is decoded, as every line
/// was before, so nothing is missed; the letters of a plain uuid are compared in either case.
struct UUIDLineFilter {
    /// What every line hkctl writes starts with.
    private static let key = Array("{\"uuid\":\"".utf8)
    /// The length of a uuid's text.
    private static let uuidLength = 36

    /// What is looked for: whole uuids (a set: a range delete looks for thousands), or the start of one.
    private enum Wanted {
        case uuids(Set<UUID>)
        case prefix(UUIDPrefix)
    }

    private let wanted: Wanted

    /// Lets through the lines of these samples.
    init(uuids: some Sequence<UUID>) {
        wanted = .uuids(Set(uuids))
    }

    /// Lets through the lines of the samples whose uuid starts with `prefix`.
    init(prefix: UUIDPrefix) {
        wanted = .prefix(prefix)
    }

    /// Whether `line` (without its newline) may hold one of the samples looked for: false only when it plainly holds
    /// another uuid.
    func mayHold(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        let key = Self.key
        let start = key.count
        guard line.count > start + Self.uuidLength, line[start + Self.uuidLength] == UInt8(ascii: "\"") else { return true }
        for index in 0..<start where line[index] != key[index] { return true }
        // A uuid in either case, dashes where they belong (else the line is decoded).
        guard let uuid = SampleLineCodec.uuid(UnsafeBufferPointer(rebasing: line[start..<start + Self.uuidLength])) else {
            return true
        }
        switch wanted {
        case let .uuids(set):
            return set.contains(uuid)
        case let .prefix(prefix):
            return prefix.matches(uuid)
        }
    }
}
