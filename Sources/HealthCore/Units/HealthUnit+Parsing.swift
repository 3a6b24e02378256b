#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TextSupport

extension HealthUnit {
    /// Parses a unit string in HealthKit's grammar, like `HKUnit(from:)`.
    ///
    /// The grammar: a term is an optional SI prefix and a base symbol (`kg`, `mL`, `mcg`, `fl_oz_us`), or a molar
    /// unit `mol<M>` with the molar mass in g/mol. Terms multiply with `*`, `.` or `·`, take integer powers with
    /// `^`, group with parentheses, and one `/` per level divides: `count/min`, `mg/dL`, `m/s^2`,
    /// `mL/(kg*min)`, `mmol<180.1558800000541>/L`.
    ///
    /// - Parameter text: The unit string.
    /// - Throws: ``UnitError/malformed(_:reason:)`` or ``UnitError/unknownUnit(_:)``.
    public init(parsing text: String) throws {
        // Most unit strings are one symbol (`mL`, `count`, `degC`): resolve those without the grammar's parser.
        if !text.isEmpty, text.utf8.allSatisfy({ ($0 | 0x20) &- 97 < 26 || $0 == 0x5F || $0 == 0x25 }) {
            self = try HealthUnit(terms: [try UnitStringParser.resolve(text)], original: text)
            return
        }
        var parser = UnitStringParser(text: text)
        let terms = try parser.parseWhole()
        self = try HealthUnit(terms: terms, original: text)
    }

    /// Parses a unit string, or returns nil when it is not valid.
    public static func parse(_ text: String) -> HealthUnit? { try? HealthUnit(parsing: text) }

    init(terms parsed: [UnitTerm], original: String) throws {
        let hasSpecial = parsed.contains { $0.base.offset != 0 || $0.base.isLogarithmic }
        if hasSpecial && !(parsed.count == 1 && parsed[0].exponent == 1) {
            throw UnitError.malformed(original, reason: "temperatures in degrees and decibel units cannot be combined with other units or powers")
        }
        let terms = UnitTerm.combined(parsed)
        // Units that cancel out whole (`m/m`) are a plain count.
        guard !terms.isEmpty else {
            self = .count()
            return
        }
        var powers = [Int](repeating: 0, count: UnitDimension.Base.allCases.count)
        var factor = 1.0
        // In the order the unit string has them, so that the string parsed again multiplies the same numbers in the
        // same order: the same size to the last bit, and a size too large for a number in both or in neither.
        for term in UnitTerm.canonicalOrder(terms) {
            guard abs(term.exponent) <= UnitTerm.largestPower else {
                throw UnitError.malformed(original, reason: "a power beyond ±\(UnitTerm.largestPower) is not supported")
            }
            for base in UnitDimension.Base.allCases {
                powers[base.rawValue] += Int(term.base.dimension.exponents[base.rawValue]) * term.exponent
            }
            factor *= pow(term.prefixFactor * term.base.factor, Double(term.exponent))
        }
        guard powers.allSatisfy({ abs($0) <= UnitTerm.largestPower }) else {
            throw UnitError.malformed(original, reason: "its dimension has a power beyond ±\(UnitTerm.largestPower), which is not supported")
        }
        var exponents = UnitDimension.none.exponents
        for base in UnitDimension.Base.allCases { exponents[base.rawValue] = Int8(powers[base.rawValue]) }
        let dimension = UnitDimension(exponents: exponents)
        guard factor.isFinite, factor > 0 else {
            throw UnitError.malformed(original, reason: "its size is beyond what a number can hold")
        }
        let offset = terms.count == 1 ? terms[0].base.offset : 0
        self.init(unitString: UnitTerm.canonicalString(terms), dimension: dimension, factor: factor, offset: offset)
    }
}

/// One factor of a unit: prefix, base unit and integer power.
struct UnitTerm {
    var prefix: String
    var prefixFactor: Double
    var base: BaseUnit
    var exponent: Int

    var symbol: String { prefix + base.symbol }

    /// The largest power a term or a dimension may have (`m^127`): far beyond any unit in use, within what a
    /// dimension holds and what ``UnitStringParser`` reads back.
    static let largestPower = 127

    /// The terms with those of one symbol (prefix and unit) merged into one power, in the order each symbol first
    /// appears, and those whose powers cancel left out, as is a count below the line (a count is 1): `m·m` is `m^2`,
    /// `kg·m/kg` is `m`, `m/count` is `m`, so that one unit has one spelling.
    static func combined(_ terms: [UnitTerm]) -> [UnitTerm] {
        var merged: [UnitTerm] = []
        for term in terms {
            if let index = merged.firstIndex(where: { $0.symbol == term.symbol }) {
                merged[index].exponent += term.exponent
            } else {
                merged.append(term)
            }
        }
        return merged.filter { $0.exponent > 0 || ($0.exponent < 0 && $0.symbol != "count") }
    }

    /// The terms in the order ``canonicalString(_:)`` writes them (a count it writes above a scale factor aside).
    static func canonicalOrder(_ terms: [UnitTerm]) -> [UnitTerm] {
        guard terms.count > 1 else { return terms }
        let numerator = terms.filter { $0.exponent > 0 }
        let denominator = terms.filter { $0.exponent < 0 }
        if numerator.isEmpty && !denominator.contains(where: { $0.base.symbol == "10" }) { return denominator }
        let isTime = { (term: UnitTerm) in term.base.dimension == .time }
        return numerator + denominator.filter(isTime) + denominator.filter { !isTime($0) }
    }

    /// HealthKit's canonical form: numerator terms joined by `·`, then `/` and the denominator terms with time first.
    static func canonicalString(_ terms: [UnitTerm]) -> String {
        // A scale factor keeps its power even when it is 1 (`10^1`): a bare `10` is not a unit.
        func render(_ term: UnitTerm, power: Int) -> String {
            power == 1 && term.base.symbol != "10" ? term.symbol : "\(term.symbol)^\(power)"
        }
        if terms.count == 1 && terms[0].exponent > 0 { return render(terms[0], power: terms[0].exponent) }
        let ordered = canonicalOrder(terms)
        let numerator = ordered.filter { $0.exponent > 0 }
        let denominator = ordered.filter { $0.exponent < 0 }
        // HealthKit's grammar reads a scale factor only with a positive power (`10^3`, never `10^-3`): a unit with
        // one below and nothing above is spelled as a count over it (`count/10^3`), which reads back as itself.
        if numerator.isEmpty && !denominator.contains(where: { $0.base.symbol == "10" }) {
            return denominator.map { render($0, power: $0.exponent) }.joined(separator: "·")
        }
        let top = numerator.isEmpty ? "count" : numerator.map { render($0, power: $0.exponent) }.joined(separator: "·")
        if denominator.isEmpty { return top }
        return top + "/" + denominator.map { render($0, power: -$0.exponent) }.joined(separator: "·")
    }
}

/// Recursive-descent parser for HealthKit unit strings.
struct UnitStringParser {
    /// How deep parentheses may nest: far more than any unit needs, few enough that a hostile string (a unit
    /// attribute of thousands of `(`) cannot exhaust the stack of this recursive parser.
    static let nestingLimit = 32

    private let original: String
    private let characters: [Character]
    private var position = 0
    private var depth = 0

    init(text: String) {
        original = text
        characters = Array(text)
    }

    mutating func parseWhole() throws -> [UnitTerm] {
        if characters.isEmpty { throw UnitError.malformed(original, reason: "it is empty") }
        if characters.contains(where: { $0.isWhitespace }) {
            throw UnitError.malformed(original, reason: "it contains a space")
        }
        let terms = try parseExpression()
        if position < characters.count {
            throw UnitError.malformed(original, reason: "unexpected '\(characters[position])' at position \(position + 1)")
        }
        return terms
    }

    private func fail(_ reason: String) -> UnitError { UnitError.malformed(original, reason: reason) }

    private var current: Character? { position < characters.count ? characters[position] : nil }

    private static func isMultiplication(_ c: Character) -> Bool { c == "*" || c == "." || c == "\u{00B7}" }

    private mutating func parseExpression() throws -> [UnitTerm] {
        var terms = try parseProduct()
        if current == "/" {
            position += 1
            let denominator = try parseProduct()
            terms += denominator.map { var term = $0; term.exponent = -term.exponent; return term }
            if current == "/" { throw fail("only one '/' is allowed; group the denominator in parentheses") }
        }
        return terms
    }

    private mutating func parseProduct() throws -> [UnitTerm] {
        var terms = try parseFactor()
        while let c = current, UnitStringParser.isMultiplication(c) {
            position += 1
            terms += try parseFactor()
        }
        return terms
    }

    private mutating func parseFactor() throws -> [UnitTerm] {
        var terms: [UnitTerm]
        var scaleTerm = false
        if current == "(" {
            position += 1
            depth += 1
            if depth > UnitStringParser.nestingLimit {
                throw fail("parentheses are nested more than \(UnitStringParser.nestingLimit) deep")
            }
            terms = try parseExpression()
            guard current == ")" else { throw fail("a '(' is not closed") }
            position += 1
            depth -= 1
        } else {
            let symbol = try readSymbol()
            if symbol == "10" {
                scaleTerm = true
                terms = [UnitTerm(prefix: "", prefixFactor: 1,
                                  base: BaseUnit(symbol: "10", dimension: .none, factor: 10), exponent: 1)]
            } else {
                terms = [try UnitStringParser.resolve(symbol)]
            }
        }
        if current == "^" {
            position += 1
            let power = try readInteger()
            if power == 0 { throw fail("a power of 0 is not allowed") }
            if scaleTerm && power < 0 { throw fail("a scale factor 10^N needs a positive N") }
            for index in terms.indices {
                // Nested powers multiply (`(m^99)^99`); the whole unit's powers are checked once combined.
                let (product, overflow) = terms[index].exponent.multipliedReportingOverflow(by: power)
                guard !overflow, abs(product) <= 1_000_000 else {
                    throw fail("a power beyond ±\(UnitTerm.largestPower) is not supported")
                }
                terms[index].exponent = product
            }
        } else if scaleTerm {
            throw fail("'10' must be a scale factor such as 10^3")
        }
        return terms
    }

    private mutating func readInteger() throws -> Int {
        var text = ""
        if current == "-" || current == "+" { text.append(current!); position += 1 }
        while let c = current, c.isASCII, c.isNumber { text.append(c); position += 1 }
        guard let value = Int(text), text.count <= 4 else { throw fail("'^' must be followed by a whole number") }
        return value
    }

    private mutating func readSymbol() throws -> String {
        var symbol = ""
        while let c = current {
            if c == "<" {
                guard let close = characters[position...].firstIndex(of: ">") else {
                    throw fail("a '<' is not closed with '>'")
                }
                symbol += String(characters[position...close])
                position = close + 1
                continue
            }
            if c == "/" || c == "(" || c == ")" || c == "^" || UnitStringParser.isMultiplication(c) { break }
            symbol.append(c)
            position += 1
        }
        if symbol.isEmpty {
            if let c = current { throw fail("expected a unit before '\(c)'") }
            throw fail("it ends where a unit was expected")
        }
        return symbol
    }

    /// Resolves one term such as `kg`, `mcg`, `fl_oz_us` or `mmol<180.15588>`.
    static func resolve(_ symbol: String) throws -> UnitTerm {
        if let base = BaseUnit.named(symbol) {
            return UnitTerm(prefix: "", prefixFactor: 1, base: base, exponent: 1)
        }
        var text = symbol
        // The micro aliases (µ, μ) are not ASCII; every other prefix is told apart from the rest by its first byte
        // before the (slower, Unicode-aware) full comparison.
        if let first = text.utf8.first, first >= 0x80 {
            for alias in UnitPrefix.microAliases where text.hasPrefix(alias) {
                text = "mc" + text.dropFirst(alias.count)
            }
        }
        let first = text.utf8.first
        for prefix in UnitPrefix.all where prefix.symbol.utf8.first == first && text.hasPrefix(prefix.symbol) {
            let rest = String(text.dropFirst(prefix.symbol.count))
            if let base = try baseAcceptingPrefix(rest, whole: symbol) {
                return UnitTerm(prefix: prefix.symbol, prefixFactor: prefix.factor, base: base, exponent: 1)
            }
        }
        if let base = try baseAcceptingPrefix(text, whole: symbol), text.hasPrefix("mol<") {
            return UnitTerm(prefix: "", prefixFactor: 1, base: base, exponent: 1)
        }
        throw UnitError.unknownUnit(symbol)
    }

    private static func baseAcceptingPrefix(_ text: String, whole: String) throws -> BaseUnit? {
        if text.hasPrefix("mol<") {
            guard text.hasSuffix(">") else { throw UnitError.malformed(whole, reason: "a molar unit must end with '>'") }
            let massText = text.dropFirst(4).dropLast()
            guard let mass = Double(massText), mass.isFinite, mass > 0 else {
                throw UnitError.malformed(whole, reason: "the molar mass in mol<M> must be a positive number of g/mol")
            }
            return BaseUnit.mole(molarMass: mass, spelling: canonicalNumber(mass))
        }
        guard let base = BaseUnit.named(text), base.acceptsPrefix else { return nil }
        return base
    }

    /// Formats a molar mass the way HealthKit prints it (16 significant digits, no trailing zeros).
    static func canonicalNumber(_ value: Double) -> String {
        var text = NumberFormatting.significant(value, digits: 16)
        if text.contains("."), !text.contains("e") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text
    }
}
