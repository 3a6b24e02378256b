import TextSupport

/// The store's `sequence` file: the last change number handed out, and the numbers reserved durably for the writers
/// of one boot of the machine (docs/STORE.md, "Changes and deletions").
///
/// A writer must never hand out a number a line already carries, even after a power loss. The file used to be
/// synced before every write's lines; now a writer syncs it only when it reserves a block of numbers (``slack`` more
/// than it needs) and records the identity it did so under: the boot of the machine and the mount of the storage
/// (``BootIdentity/current(forStoreIn:)``; the field is still named `boot`). Later writes under the same identity
/// take numbers from the block and rewrite the last number without syncing it: every process of one boot sees the
/// same page cache of a mount, so the unsynced number is exact for all of them, and only a crash of the whole machine
/// (a new boot) or storage gone before its writes reached it (a new mount when it is used again) can lose it. A
/// process under another identity (or one that cannot tell its own) therefore starts after the reservation, which was
/// durable before any line used a number of it. Gaps in the numbers are harmless.
///
/// The text: the last number as twenty digits and a newline, then, when a block is reserved,
/// `reserved <twenty digits> boot <identity>` and a newline. A file of the first line alone (every store before
/// this form, and the doctor's rebuilt counter) is a durable last number with no block.
struct ChangeCounter: Equatable {
    /// The numbers a writer reserves beyond the ones it needs when it must sync the file anyway.
    static let slack: UInt64 = 1024
    /// The longest identity kept (Linux's boot and mount: 36 + 2 + up to 16 characters).
    static let longestBoot = 64

    /// The last number handed out (exact for the boot ``boot``).
    var last: UInt64
    /// The durable upper bound of every number handed out: nil when ``last`` itself is durable.
    var reservedThrough: UInt64?
    /// The boot the reservation was made in.
    var boot: String?

    init(last: UInt64, reservedThrough: UInt64? = nil, boot: String? = nil) {
        self.last = last
        self.reservedThrough = reservedThrough
        self.boot = boot
    }

    /// Reads the file's text; nil when it is neither form (the caller reports it as damage).
    init?(text bytes: [UInt8]) {
        // Trailing spaces and newlines are allowed, as readers of the first form always allowed them.
        var end = bytes.count
        while end > 0, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[end - 1]) { end -= 1 }
        let lines = bytes[..<end].split(separator: 0x0A, omittingEmptySubsequences: false)
        guard (1...2).contains(lines.count), let last = ChangeCounter.number(lines[0]) else { return nil }
        self.last = last
        guard lines.count == 2 else { return }
        let fields = lines[1].split(separator: 0x20, omittingEmptySubsequences: false)
        guard fields.count == 4, fields[0].elementsEqual("reserved".utf8), fields[2].elementsEqual("boot".utf8),
              let reserved = ChangeCounter.number(fields[1]), ChangeCounter.isBoot(fields[3]) else { return nil }
        reservedThrough = reserved
        boot = String(decoding: fields[3], as: UTF8.self)
    }

    /// The file's text.
    var text: [UInt8] {
        var bytes = ChangeCounter.digits(last)
        if let reservedThrough, let boot {
            bytes += Array("reserved ".utf8) + ChangeCounter.digits(reservedThrough).dropLast() + Array(" boot \(boot)\n".utf8)
        }
        return bytes
    }

    /// The last number handed out, as a process of boot `current` must take it: the reservation's end when the
    /// reservation was made in another boot (or either boot is unknown), since the last number may then be one a crash
    /// lost.
    func lastUsed(inBoot current: String?) -> UInt64 {
        guard let reservedThrough else { return last }
        if let boot, let current, boot == current { return last }
        return max(last, reservedThrough)
    }

    /// Hands out `count` numbers after ``lastUsed(inBoot:)`` for a writer of boot `current`.
    ///
    /// - Parameter counter: The file's path, for the error.
    /// - Returns: The numbers, the file's next content, and whether it must be synced before any line uses them
    ///   (false only when they lie within a reservation of this boot).
    /// - Throws: ``StoreError/changeNumbersExhausted(_:last:)``.
    func handingOut(_ count: Int, inBoot current: String?, counter: String) throws
        -> (numbers: ClosedRange<UInt64>, next: ChangeCounter, sync: Bool) {
        let numbers = try ChangeNumbers.next(after: lastUsed(inBoot: current), count: count, counter: counter)
        guard let current, ChangeCounter.isBoot(Array(current.utf8)[...]) else {
            // No boot to tell a crash by: every write's last number is durable, as before reservations.
            return (numbers, ChangeCounter(last: numbers.upperBound), true)
        }
        if let reservedThrough, boot == current, numbers.upperBound <= reservedThrough {
            return (numbers, ChangeCounter(last: numbers.upperBound, reservedThrough: reservedThrough, boot: current), false)
        }
        let end = numbers.upperBound + min(ChangeCounter.slack, ChangeNumbers.maximum - numbers.upperBound)
        return (numbers, ChangeCounter(last: numbers.upperBound, reservedThrough: end, boot: current), true)
    }

    /// Whether `bytes` can stand as a boot identity in the file: 1 to ``longestBoot`` letters, digits and '-'.
    static func isBoot(_ bytes: ArraySlice<UInt8>) -> Bool {
        (1...longestBoot).contains(bytes.count) && bytes.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x2D
        }
    }

    /// A change number written as digits (spaces around it allowed, as the first form's readers always allowed).
    private static func number(_ bytes: ArraySlice<UInt8>) -> UInt64? {
        let text = String(decoding: bytes, as: UTF8.self).trimmingSpacesAndNewlines()
        guard let value = UInt64(text), value <= ChangeNumbers.maximum else { return nil }
        return value
    }

    /// Twenty digits, zero-padded, and a newline.
    private static func digits(_ value: UInt64) -> [UInt8] {
        let digits = Array(String(value).utf8)
        return [UInt8](repeating: UInt8(ascii: "0"), count: max(0, 20 - digits.count)) + digits + [0x0A]
    }
}
