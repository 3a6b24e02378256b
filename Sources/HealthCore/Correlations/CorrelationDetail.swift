import TextSupport

/// The members of a correlation: the uuid and type of each sample it groups. Stored as the `"correlation"` key of
/// the correlation's line: `"correlation":{"members":[{"uuid":"…","type":"HKQuantityTypeIdentifierBloodPressureSystolic"},…]}`.
///
/// The members are ordinary samples in their own types' partitions, so `list systolic` and `stats dietary-energy`
/// see them, once; the correlation only refers to them.
public struct CorrelationDetail: Hashable, Sendable {
    /// One member: which sample, of which type.
    public struct Member: Hashable, Sendable {
        public var uuid: UUID
        public var typeIdentifier: String

        /// Creates a member reference.
        public init(uuid: UUID, typeIdentifier: String) {
            self.uuid = uuid
            self.typeIdentifier = typeIdentifier
        }
    }

    /// The members, in the order they were recorded.
    public var members: [Member]

    /// Creates a detail.
    public init(members: [Member]) { self.members = members }

    func json() -> String {
        "{\"members\":[" + members.map { member in
            "{\"uuid\":\"\(member.uuid.lowercasedText)\",\"type\":\(JSONText.quoted(member.typeIdentifier))}"
        }.joined(separator: ",") + "]}"
    }

    /// Reads the object written by ``json()``.
    init(scanning scanner: inout JSONLineScanner) throws {
        var members: [Member] = []
        try scanner.readObject { scanner, key in
            guard key == "members" else { try scanner.skipValue(); return }
            try scanner.expect(UInt8(ascii: "["))
            if scanner.peek() == UInt8(ascii: "]") { scanner.index += 1; return }
            while true {
                var uuid: UUID?, type: String?
                try scanner.readObject { scanner, key in
                    switch key {
                    case "uuid": uuid = UUID(uuidString: try scanner.readString())
                    case "type": type = try scanner.readString()
                    default: try scanner.skipValue()
                    }
                }
                guard let uuid, let type else { throw LineError("a correlation member needs a uuid and a type") }
                members.append(Member(uuid: uuid, typeIdentifier: type))
                if scanner.peek() == UInt8(ascii: ",") { scanner.index += 1; continue }
                try scanner.expect(UInt8(ascii: "]"))
                return
            }
        }
        self.members = members
    }
}
