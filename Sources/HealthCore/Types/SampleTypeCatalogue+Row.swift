extension SampleTypeCatalogue {
    /// One row of a catalogue's table: a type as the table writes it, its units still text, made into a
    /// ``SampleType`` only when it is used.
    struct Row: Sendable {
        /// What a row holds besides its names, title and examples.
        enum Details: Sendable {
            /// A quantity type: how it aggregates, its canonical and display unit strings, its plausible range.
            case quantity(AggregationStyle, unit: String, display: String?, validRange: ClosedRange<Double>)
            /// A category type: its values (read when the type is made) and the longest a sample may last.
            case category(@Sendable () -> [CategoryValue], maximumDuration: TimeInterval?)
            /// A type made already, given to ``SampleTypeCatalogue/init(_:)``. Indirect, so that a row is not as
            /// large as a whole type: the standard table's rows fit in half the memory (fewer pages touched).
            indirect case made(SampleType)
        }

        /// The HealthKit prefix of the identifier (one of ``SampleType/identifierPrefixes``), or empty when the
        /// identifier has none.
        let prefix: String
        /// The identifier after ``prefix`` (`DietaryWater`): with the prefix, the HealthKit identifier.
        let suffix: String
        /// The short name (`water`).
        let name: String
        let title: String
        /// The type's examples, read when the type is made: each list literal of the standard table is an object the
        /// program initialises when it first uses it, and a command uses one or two of the 190 (BENCHMARKS.md,
        /// session 43).
        let examples: @Sendable () -> [String]
        let details: Details

        /// A quantity type's row.
        static func quantity(_ suffix: String, name: String, title: String, aggregation: AggregationStyle,
                             unit: String, display: String?, examples: @escaping @Sendable () -> [String],
                             validRange: ClosedRange<Double>) -> Row {
            Row(prefix: "HKQuantityTypeIdentifier", suffix: suffix, name: name, title: title, examples: examples,
                details: .quantity(aggregation, unit: unit, display: display, validRange: validRange))
        }

        /// A category type's row.
        static func category(_ suffix: String, name: String, title: String,
                             values: @escaping @Sendable () -> [CategoryValue], examples: @escaping @Sendable () -> [String],
                             maximumDuration: TimeInterval?) -> Row {
            Row(prefix: "HKCategoryTypeIdentifier", suffix: suffix, name: name, title: title, examples: examples,
                details: .category(values, maximumDuration: maximumDuration))
        }

        /// The row of a type made already. Its identifier is split after a HealthKit prefix, as the unprefixed lookup
        /// drops one: only when the identifier begins with one of ``SampleType/identifierPrefixes`` and goes on after it.
        init(made type: SampleType) {
            let identifier = type.identifier
            let prefix = SampleType.identifierPrefixes.first {
                identifier.hasPrefix($0) && identifier.utf8.count > $0.utf8.count
            }
            self.prefix = prefix ?? ""
            suffix = prefix.map { String(decoding: type.identifier.utf8.dropFirst($0.utf8.count), as: UTF8.self) }
                ?? type.identifier
            name = type.name
            title = type.title
            let examples = type.examples
            self.examples = { examples }
            details = .made(type)
        }

        private init(prefix: String, suffix: String, name: String, title: String,
                     examples: @escaping @Sendable () -> [String], details: Details) {
            self.prefix = prefix
            self.suffix = suffix
            self.name = name
            self.title = title
            self.examples = examples
            self.details = details
        }

        /// Whether the ASCII text `key` names this row's type, ignoring case: its short name, its identifier, or its
        /// identifier without the HealthKit prefix.
        func answers(to key: UnsafeBufferPointer<UInt8>) -> Bool {
            if ASCIICase.equal(key, name) { return true }
            if prefix.isEmpty { return ASCIICase.equal(key, suffix) }
            if ASCIICase.equal(key, suffix) { return true }
            let prefixLength = prefix.utf8.count
            return key.count > prefixLength
                && ASCIICase.equal(UnsafeBufferPointer(rebasing: key[..<prefixLength]), prefix)
                && ASCIICase.equal(UnsafeBufferPointer(rebasing: key[prefixLength...]), suffix)
        }

        /// The type this row describes, its unit strings parsed.
        func type() -> SampleType {
            type { try! HealthUnit(parsing: $0) }
        }

        /// The type this row describes; `units` holds the unit strings parsed so far, and gains this row's.
        func type(units: inout [String: HealthUnit]) -> SampleType {
            type { Row.unit($0, &units) }
        }

        private func type(unit: (String) -> HealthUnit) -> SampleType {
            switch details {
            case .made(let type):
                return type
            case let .quantity(aggregation, unitText, display, validRange):
                let canonical = unit(unitText)
                return .quantity(prefix + suffix, name: name, title: title, aggregation: aggregation,
                                 canonicalUnit: canonical, displayUnit: display.map(unit) ?? canonical,
                                 examples: examples(), validRange: validRange)
            case let .category(values, maximumDuration):
                return .category(prefix + suffix, name: name, title: title, values: values(), examples: examples(),
                                 maximumDuration: maximumDuration)
            }
        }

        private static func unit(_ text: String, _ units: inout [String: HealthUnit]) -> HealthUnit {
            if let unit = units[text] { return unit }
            let unit = try! HealthUnit(parsing: text)
            units[text] = unit
            return unit
        }
    }
}
