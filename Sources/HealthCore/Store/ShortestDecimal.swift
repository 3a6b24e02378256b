/// The shortest decimal that reads back as a given double, written straight into a line's bytes: the text
/// `Double.description` gives (`72.5`, `0.001`, `-3.14159`), for the doubles most figures are, without a String.
///
/// It takes a finite double that is not whole, from 2^-10 to 2^49 in magnitude, whose significand is not a power
/// of two. With `v = M / 2^s` (`M` its 53-bit significand), the candidate with `d` decimals is the integer `m`
/// nearest to `v · 10^d = M · 10^d / 2^s`, computed exactly in 128 bits. `m / 10^d` reads back as `v` exactly when
/// it is less than half a unit in the last place from it, that is when `2 · |m · 2^s − M · 10^d| < 10^d`. The first
/// `d` (from 1) where that holds gives the fewest digits, and the nearest `m` is the candidate closest to `v`, as
/// Swift's own algorithm chooses. The cases where the two could choose differently are left to `description`:
/// a candidate exactly on the interval's edge (where the parser's ties-to-even decides), two candidates equally near,
/// a power-of-two significand (its interval is lopsided), and anything outside the range (exponents, whole numbers).
enum ShortestDecimal {
    /// 10^0 to 10^19 (a literal, so the compiler lays it out once rather than on first use).
    private static let tens: [UInt64] = [
        1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000, 10_000_000_000,
        100_000_000_000, 1_000_000_000_000, 10_000_000_000_000, 100_000_000_000_000, 1_000_000_000_000_000,
        10_000_000_000_000_000, 100_000_000_000_000_000, 1_000_000_000_000_000_000, 10_000_000_000_000_000_000,
    ]
    /// What ``candidate(_:shift:power:)`` returns when no decimal with that many decimals reads back as the value
    /// (the nearest is never 0: the value is at least 2^-10 and the interval narrower than it).
    private static let tooFew: UInt64 = 0
    /// What it returns when a candidate lies on the interval's edge or two are equally near: `description` decides.
    private static let undecided = UInt64.max

    /// The shortest decimal of `value` as `digits / 10^decimals` (`digits` not a multiple of ten), or nil when
    /// `value` is not one this writer takes (see the type's note); `value`'s sign is left out.
    ///
    /// Whether `d` decimals suffice only grows with `d`, and `d` past `shift · log10(2)` always suffices (the
    /// candidates are then closer together than the interval is wide), so the search tries 1 to 3 decimals (short
    /// figures), then one below that bound (most doubles need the bound or the one below), then halves what is left.
    static func digits(of value: Double) -> (digits: UInt64, decimals: Int)? {
        let magnitude = value.magnitude
        guard magnitude >= 0x1p-10, magnitude < 0x1p49 else { return nil }  // also excludes NaN
        let fraction = magnitude.significandBitPattern
        guard fraction != 0 else { return nil }  // a power of two
        let significand = fraction | (1 << 52)
        let shift = 1075 - Int(magnitude.exponentBitPattern)  // 4 to 62: the value is significand / 2^shift
        guard significand & ((1 << UInt64(shift)) &- 1) != 0 else { return nil }  // whole
        // 10^bound > 2^shift: bound decimals always suffice (bound is 2 to 19).
        let bound = (shift &* 1233) >> 12 &+ 1
        return tens.withUnsafeBufferPointer { tens -> (digits: UInt64, decimals: Int)? in
            var decimals = 1
            while decimals <= 3 && decimals <= bound {
                let digits = candidate(significand, shift: shift, power: tens[decimals])
                if digits == undecided { return nil }
                if digits != tooFew { return (digits, decimals) }
                decimals &+= 1
            }
            guard bound >= 4 else { return nil }  // the bound suffices: not reached
            // The answer lies in low...high: high suffices (its digits are known once tried), low - 1 does not.
            var low = 4, high = bound
            var found = tooFew
            var probe = bound &- 1
            while low < high {
                let digits = candidate(significand, shift: shift, power: tens[probe])
                if digits == undecided { return nil }
                if digits == tooFew {
                    low = probe &+ 1
                } else {
                    (high, found) = (probe, digits)
                }
                probe = (low &+ high) >> 1
            }
            if found == tooFew { found = candidate(significand, shift: shift, power: tens[high]) }
            guard found != tooFew, found < 100_000_000_000_000_000 else { return nil }
            return (found, high)
        }
    }

    /// The nearest decimal with as many decimals as `power` has zeros, as digits, when it reads back as
    /// `significand / 2^shift`; else ``tooFew`` or ``undecided``.
    @inline(__always)
    private static func candidate(_ significand: UInt64, shift: Int, power: UInt64) -> UInt64 {
        let unit: UInt64 = 1 << UInt64(shift)
        let (high, low) = significand.multipliedFullWidth(by: power)
        // The quotient must fit 64 bits (it does whenever its digits could be the answer).
        guard high >> UInt64(shift) == 0 else { return undecided }
        let quotient = (high << UInt64(64 &- shift)) | (low >> UInt64(shift))
        let remainder = low & (unit &- 1)
        let twiceRemainder = remainder << 1
        let nearest: UInt64
        let distance: UInt64
        if twiceRemainder < unit {
            (nearest, distance) = (quotient, remainder)
        } else if twiceRemainder > unit {
            (nearest, distance) = (quotient &+ 1, unit &- remainder)
        } else {
            // Halfway between two candidates: either reads back as the value or neither does.
            return unit <= power ? undecided : tooFew
        }
        let twiceDistance = distance << 1
        if twiceDistance < power { return nearest }
        return twiceDistance == power ? undecided : tooFew
    }

    /// Appends `value` as `Double.description` spells it and returns true, or appends nothing and returns false when
    /// `value` is not one this writer takes.
    static func append(_ value: Double, to out: ByteBuffer) -> Bool {
        guard let (digits, decimals) = digits(of: value) else { return false }
        let power = tens[decimals]
        if value < 0 { out.append(UInt8(ascii: "-")) }
        JSONBytes.appendDigits(Int(digits / power), width: 1, to: out)
        out.append(UInt8(ascii: "."))
        JSONBytes.appendDigits(Int(digits % power), width: decimals, to: out)
        return true
    }
}
