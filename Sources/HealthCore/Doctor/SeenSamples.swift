/// The samples of one type that ``StoreDoctor`` has met, to find a uuid stored more than once.
///
/// A line whose uuid a tombstone hides (a deleted sample, perhaps imported again later) is not a copy: only the
/// visible lines count, and the first of them is the sample.
struct SeenSamples {
    private let deleted: JSONFileStore.Deletions
    /// Where each uuid was first seen: an index into ``files`` and the line number.
    private var first: [UUID: (file: Int32, line: Int32)] = [:]
    private var files: [String] = []

    init(deleted: JSONFileStore.Deletions) {
        self.deleted = deleted
    }

    /// Records `sample` (line `line` of `file`, written with change number `sequence`); returns where its first copy
    /// is when this line is a second one.
    mutating func firstCopy(of sample: Sample, sequence: UInt64, at file: String, line: Int) -> String? {
        if deleted.hides(sample, sequence: sequence) { return nil }
        if let known = first[sample.uuid] { return "\(files[Int(known.file)]):\(known.line)" }
        if files.last != file { files.append(file) }
        first[sample.uuid] = (Int32(files.count - 1), Int32(clamping: line))
        return nil
    }
}
