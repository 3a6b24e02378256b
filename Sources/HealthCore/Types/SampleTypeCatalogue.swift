/// The set of sample types the library knows, with lookup by any of their names.
///
/// A catalogue is a table of rows (``SampleTypeCatalogue/Row``): a row becomes a ``SampleType``, its unit strings
/// parsed, only when a lookup finds it or ``types`` lists every type, and the catalogue keeps what it made for later
/// lookups. A command that uses one type so makes one, not the whole table (making all of HealthKit's types cost
/// every command about 0.5 M instructions: see BENCHMARKS.md). Lookups compare bytes against the rows directly;
/// callers that look up per record keep their own cache.
public struct SampleTypeCatalogue: Sendable {
    private let table: Table

    /// Every type, in the table's order.
    public var types: [SampleType] { table.allTypes }

    /// Creates a catalogue. Names and identifiers must be unique, ignoring case (``duplicateNames`` lists any that
    /// are not; the tests check the standard catalogue).
    public init(_ types: [SampleType]) {
        table = Table(types.map(Row.init(made:)))
    }

    /// Creates a catalogue from the rows of a table, in the order ``types`` lists them.
    init(rows: [Row]) {
        table = Table(rows)
    }

    /// The type called `text`: its short name (`water`), HealthKit identifier
    /// (`HKQuantityTypeIdentifierDietaryWater`) or identifier without prefix (`dietaryWater`), in any case.
    ///
    /// - Throws: ``SampleError/unknownType(_:known:)`` naming the known short names, or
    ///   ``CharacteristicError/notASampleType(_:)`` for a characteristic such as `blood-type`.
    public func type(named text: String) throws -> SampleType {
        if let type = lookUp(text) { return type }
        if let characteristic = SampleType.characteristicType(named: text) {
            throw CharacteristicError.notASampleType(characteristic.name)
        }
        throw SampleError.unknownType(text, known: table.rows.map(\.name))
    }

    /// The type with this HealthKit identifier (in any case; a short name or unprefixed identifier also matches),
    /// if known.
    public func type(identifier: String) -> SampleType? { lookUp(identifier) }

    /// The rows of the catalogue's table.
    var rows: [Row] { table.rows }

    /// How many of the rows have been made into types so far.
    var madeCount: Int { table.madeCount }

    /// Names (short names, identifiers, unprefixed identifiers, ignoring case) that more than one type answers to.
    public var duplicateNames: [String] {
        var owners: [String: String] = [:]
        var duplicates: [String] = []
        for type in types {
            for key in Set([type.name, type.identifier, type.shortIdentifier].map { $0.lowercased() }) {
                if owners.updateValue(type.identifier, forKey: key) != nil { duplicates.append(key) }
            }
        }
        return duplicates
    }

    private func lookUp(_ text: String) -> SampleType? {
        var key = text
        if !key.utf8.allSatisfy({ $0 < 0x80 }) {
            // Unicode lowercasing can turn a non-ASCII letter into an ASCII one (the Kelvin sign into "k").
            key = key.lowercased()
            guard key.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        }
        guard let index = key.withUTF8({ table.index(answering: $0) }) else { return nil }
        return table.type(at: index)
    }
}

extension SampleTypeCatalogue {
    /// The rows of a catalogue and the types made from them so far, under a lock.
    ///
    /// Not ``Locked``: each generic class instantiated costs a command its metadata at run time.
    private final class Table: @unchecked Sendable {
        let rows: [Row]
        private let lock = Lock()
        /// Types made so far, by row (under `lock`).
        private var made: [Int: SampleType] = [:]
        /// Every row's type once ``allTypes`` was asked for (under `lock`).
        private var all: [SampleType]?

        init(_ rows: [Row]) {
            self.rows = rows
        }

        /// The first row whose type `key` names (``Row/answers(to:)``). The rows are read in place: a loop that
        /// copied each row it looked at (its strings retained and released) cost 93 k instructions a lookup, paid for
        /// every category line a store read decoded (`stats sleep --year` spent a fifth of its time here).
        func index(answering key: UnsafeBufferPointer<UInt8>) -> Int? {
            rows.withUnsafeBufferPointer { rows in
                var index = 0
                while index < rows.count {
                    if rows[index].answers(to: key) { return index }
                    index += 1
                }
                return nil
            }
        }

        /// The type of row `index`, made the first time it is asked for.
        func type(at index: Int) -> SampleType {
            lock.lock()
            defer { lock.unlock() }
            if let type = made[index] { return type }
            let type = rows[index].type()
            made[index] = type
            return type
        }

        var madeCount: Int {
            lock.lock()
            defer { lock.unlock() }
            return all?.count ?? made.count
        }

        /// The type of every row, in order; rows share the units they parse (most types use one of a handful).
        var allTypes: [SampleType] {
            lock.lock()
            defer { lock.unlock() }
            if let all { return all }
            var units: [String: HealthUnit] = [:]
            let all = rows.indices.map { made[$0] ?? rows[$0].type(units: &units) }
            self.all = all
            return all
        }
    }
}
