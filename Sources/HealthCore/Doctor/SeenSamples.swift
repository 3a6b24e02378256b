/// The samples of one type that ``StoreDoctor`` has met, to find a uuid stored more than once.
///
/// A line whose uuid a tombstone hides (a deleted sample, perhaps imported again later) is not a copy: only the
/// visible lines count, and the first of them is the sample.
struct SeenSamples {
    private let deleted: JSONFileStore.Deletions
    /// Where each uuid was first seen: an index into ``files`` and the line number.
    private var first = UUIDLocations()
    private var files: [String] = []

    init(deleted: JSONFileStore.Deletions) {
        self.deleted = deleted
    }

    /// Records `sample` (line `line` of `file`, written with change number `sequence`); returns where its first copy
    /// is when this line is a second one.
    mutating func firstCopy(of sample: Sample, sequence: UInt64, at file: String, line: Int) -> String? {
        if deleted.hides(sample, sequence: sequence) { return nil }
        if files.last != file { files.append(file) }
        let known = first.insert(sample.uuid, file: Int32(clamping: files.count - 1), line: Int32(clamping: line))
        guard let known else { return nil }
        return "\(files[Int(known.file)]):\(known.line)"
    }
}

/// Where each of many uuids was first met (a file index and a line): open addressing over the uuids' two halves as
/// ``UUIDSet`` does, with the place in a third word, so that a store's millions of samples are not each hashed
/// through `Hasher` into a dictionary (a third of the doctor's time on ten years' store).
struct UUIDLocations {
    /// Three words per slot: the uuid's halves and the place (file index high, line low); the all-zero pair of halves
    /// marks an empty slot (the nil UUID's place is kept in ``nilPlace``).
    private var words = [UInt64](repeating: 0, count: 16 * 3)
    private var mask = 15
    private var nilPlace: UInt64?
    private var count = 0

    /// Records the place of `uuid` when it is new (nil returned); otherwise returns the place recorded first.
    mutating func insert(_ uuid: UUID, file: Int32, line: Int32) -> (file: Int32, line: Int32)? {
        let place = UInt64(UInt32(bitPattern: file)) << 32 | UInt64(UInt32(bitPattern: line))
        let (high, low) = UUIDSet.halves(uuid)
        if high == 0 && low == 0 {
            if let known = nilPlace { return Self.unpack(known) }
            nilPlace = place
            return nil
        }
        if (count + 1) * 4 > (mask + 1) * 3 { grow() }
        let known: UInt64? = words.withUnsafeMutableBufferPointer { words in
            var slot = UUIDSet.slot(high, low, mask)
            while true {
                let h = words[slot &* 3], l = words[slot &* 3 &+ 1]
                if h == high && l == low { return words[slot &* 3 &+ 2] }
                if h == 0 && l == 0 {
                    words[slot &* 3] = high
                    words[slot &* 3 &+ 1] = low
                    words[slot &* 3 &+ 2] = place
                    return nil
                }
                slot = (slot &+ 1) & mask
            }
        }
        guard let known else {
            count += 1
            return nil
        }
        return Self.unpack(known)
    }

    private static func unpack(_ place: UInt64) -> (file: Int32, line: Int32) {
        (Int32(bitPattern: UInt32(truncatingIfNeeded: place >> 32)), Int32(bitPattern: UInt32(truncatingIfNeeded: place)))
    }

    private mutating func grow() {
        let old = words
        let slots = (mask + 1) * 2
        words = [UInt64](repeating: 0, count: slots * 3)
        mask = slots - 1
        old.withUnsafeBufferPointer { old in
            words.withUnsafeMutableBufferPointer { words in
                var index = 0
                while index < old.count {
                    let high = old[index], low = old[index + 1]
                    if high != 0 || low != 0 {
                        var slot = UUIDSet.slot(high, low, mask)
                        while words[slot &* 3] != 0 || words[slot &* 3 &+ 1] != 0 { slot = (slot &+ 1) & mask }
                        words[slot &* 3] = high
                        words[slot &* 3 &+ 1] = low
                        words[slot &* 3 &+ 2] = old[index + 2]
                    }
                    index += 3
                }
            }
        }
    }
}
