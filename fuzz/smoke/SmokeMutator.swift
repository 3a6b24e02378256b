/// Mutates fuzz inputs as libFuzzer's simplest strategies do (bit flips, random and telling bytes, inserted, erased,
/// repeated and spliced runs, truncation), from a seeded generator so that a run can be repeated.
struct SmokeMutator {
    /// The longest input made, as `fuzz/run`'s `-max_len`.
    static let maximumLength = 8192

    /// Bytes that mean something to the parsers fuzzed: JSON's and XML's punctuation, digits, signs, line ends,
    /// a NUL, a byte that is never UTF-8, and the start of a multi-byte sequence.
    static let tellingBytes: [UInt8] = Array("\"{}[]:,<>/=&;'\\ \r\n\t0123456789-+.eE%^*·".utf8) + [0, 0xFF, 0xC3, 0xE2]

    private var state: UInt64

    init(seed: UInt64) { state = seed }

    /// The next number of a splitmix64 sequence.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }

    /// A number in `0..<bound` (0 when `bound` is not positive).
    mutating func below(_ bound: Int) -> Int {
        bound > 0 ? Int(next() % UInt64(bound)) : 0
    }

    /// `input` changed by one to four mutations; `other` is the input a splice takes a run from.
    mutating func mutate(_ input: [UInt8], splicingWith other: [UInt8]) -> [UInt8] {
        var bytes = input
        for _ in 0...below(4) {
            let position = below(bytes.count + 1)
            switch below(8) {
            case 0 where !bytes.isEmpty:
                bytes[min(position, bytes.count - 1)] ^= UInt8(1) << UInt8(below(8))
            case 1 where !bytes.isEmpty:
                bytes[min(position, bytes.count - 1)] = UInt8(truncatingIfNeeded: next())
            case 2:
                bytes.insert(Self.tellingBytes[below(Self.tellingBytes.count)], at: position)
            case 3 where !bytes.isEmpty:
                let start = min(position, bytes.count - 1)
                bytes.removeSubrange(start..<min(bytes.count, start + 1 + below(16)))
            case 4 where !bytes.isEmpty:
                let start = min(position, bytes.count - 1)
                let run = Array(bytes[start..<min(bytes.count, start + 1 + below(32))])
                bytes.insert(contentsOf: run, at: below(bytes.count + 1))
            case 5 where !other.isEmpty:
                let start = below(other.count)
                bytes.insert(contentsOf: other[start..<min(other.count, start + 1 + below(64))], at: position)
            case 6:
                bytes.removeSubrange(position...)
            default:
                let digits = Array(String(next() % 100_000_000_000).utf8)
                bytes.insert(contentsOf: digits, at: position)
            }
        }
        return bytes.count > Self.maximumLength ? Array(bytes.prefix(Self.maximumLength)) : bytes
    }
}
