/// A set of sync identifier hashes (``HAEImportRun/syncHash(_:)``, whose bits are already mixed): open addressing
/// on the hash's own bits, where `Set<Int>` would hash each one again.
struct HAEHashSet {
    /// Power-of-two many slots; 0 marks an empty one (the hash 0 is kept apart).
    private var slots: [Int] = []
    private var hasZero = false
    private(set) var count = 0

    init(minimumCapacity: Int = 0) {
        if minimumCapacity > 0 { slots = Array(repeating: 0, count: HAEHashSet.capacity(for: minimumCapacity)) }
    }

    /// Slots for `count` hashes at most half full.
    private static func capacity(for count: Int) -> Int {
        var capacity = 16
        while capacity < count * 2 { capacity <<= 1 }
        return capacity
    }

    func contains(_ hash: Int) -> Bool {
        if hash == 0 { return hasZero }
        guard !slots.isEmpty else { return false }
        let mask = slots.count - 1
        var index = hash & mask
        while true {
            let slot = slots[index]
            if slot == hash { return true }
            if slot == 0 { return false }
            index = (index + 1) & mask
        }
    }

    /// Adds `hash`; false when it was there already.
    @discardableResult
    mutating func insert(_ hash: Int) -> Bool {
        if hash == 0 {
            defer { hasZero = true }
            if !hasZero { count += 1 }
            return !hasZero
        }
        if (count + 1) * 2 > slots.count { grow() }
        let mask = slots.count - 1
        var index = hash & mask
        while true {
            let slot = slots[index]
            if slot == hash { return false }
            if slot == 0 {
                slots[index] = hash
                count += 1
                return true
            }
            index = (index + 1) & mask
        }
    }

    /// Makes room for `additional` more hashes, so that inserting that many does not move the table.
    mutating func reserve(adding additional: Int) {
        let needed = HAEHashSet.capacity(for: count + additional)
        if needed > slots.count { rehash(into: needed) }
    }

    /// The slot `hash`'s search starts at, read so that an ``insert(_:)`` or ``contains(_:)`` of it soon after finds
    /// it in the cache. A year's set outgrows the caches, and one lookup after another waits for each slot's fetch in
    /// turn; the reads of a run of these do not depend on one another, so their fetches overlap. The value is only for
    /// the caller to fold into something it keeps, so the read is not optimised away.
    func slotWord(_ hash: Int) -> Int {
        guard !slots.isEmpty else { return 0 }
        return slots[hash & (slots.count - 1)]
    }

    private mutating func grow() {
        rehash(into: HAEHashSet.capacity(for: max(count + 1, slots.count)))
    }

    private mutating func rehash(into capacity: Int) {
        let old = slots
        slots = Array(repeating: 0, count: capacity)
        let mask = slots.count - 1
        for hash in old where hash != 0 {
            var index = hash & mask
            while slots[index] != 0 { index = (index + 1) & mask }
            slots[index] = hash
        }
    }
}
