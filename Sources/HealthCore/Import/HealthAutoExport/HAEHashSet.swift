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

    private mutating func grow() {
        let old = slots
        slots = Array(repeating: 0, count: HAEHashSet.capacity(for: max(count + 1, old.count)))
        let mask = slots.count - 1
        for hash in old where hash != 0 {
            var index = hash & mask
            while slots[index] != 0 { index = (index + 1) & mask }
            slots[index] = hash
        }
    }
}
