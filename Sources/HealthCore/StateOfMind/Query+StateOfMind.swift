/// How a ``Query/predicateForStatesOfMind(withValence:operatorType:)`` compares: Foundation's
/// `NSComparisonPredicate.Operator`, whose cases HealthKit code names (`.lessThan`, `.greaterThanOrEqualTo`, ...).
public enum ComparisonPredicateOperator: Hashable, Sendable {
    case lessThan, lessThanOrEqualTo, greaterThan, greaterThanOrEqualTo, equalTo, notEqualTo

    /// Whether `value` relates to `bound` as this operator says.
    func holds(_ value: Double, _ bound: Double) -> Bool {
        switch self {
        case .lessThan: return value < bound
        case .lessThanOrEqualTo: return value <= bound
        case .greaterThan: return value > bound
        case .greaterThanOrEqualTo: return value >= bound
        case .equalTo: return value == bound
        case .notEqualTo: return value != bound
        }
    }
}

/// One condition on a state of mind, held by a ``SamplePredicate``: a sample that is not a state of mind meets none.
enum StateOfMindCondition: Hashable, Sendable {
    case kind(StateOfMind.Kind)
    case classification(StateOfMind.ValenceClassification)
    case label(StateOfMind.Label)
    case association(StateOfMind.Association)
    case valence(Double, ComparisonPredicateOperator)

    func holds(for sample: Sample) -> Bool {
        guard let state = StateOfMind(sample) else { return false }
        switch self {
        case let .kind(kind): return state.kind == kind
        case let .classification(classification): return state.valenceClassification == classification
        case let .label(label): return state.labels.contains(label)
        case let .association(association): return state.associations.contains(association)
        case let .valence(bound, comparison): return comparison.holds(state.valence, bound)
        }
    }
}

/// HealthKit's `HKQuery` predicates for states of mind (iOS 18); combine them with ``SamplePredicate/and(_:)``.
extension Query {
    /// States of mind of `kind`, as `predicateForStatesOfMind(with: HKStateOfMind.Kind)`.
    public static func predicateForStatesOfMind(with kind: StateOfMind.Kind) -> SamplePredicate {
        SamplePredicate(stateOfMind: .kind(kind))
    }

    /// States of mind whose valence lies in `valenceClassification`'s band, as
    /// `predicateForStatesOfMind(with: HKStateOfMind.ValenceClassification)`.
    public static func predicateForStatesOfMind(with valenceClassification: StateOfMind.ValenceClassification) -> SamplePredicate {
        SamplePredicate(stateOfMind: .classification(valenceClassification))
    }

    /// States of mind that carry `label`, as `predicateForStatesOfMind(with: HKStateOfMind.Label)`.
    public static func predicateForStatesOfMind(with label: StateOfMind.Label) -> SamplePredicate {
        SamplePredicate(stateOfMind: .label(label))
    }

    /// States of mind associated with `association`, as `predicateForStatesOfMind(with: HKStateOfMind.Association)`.
    public static func predicateForStatesOfMind(with association: StateOfMind.Association) -> SamplePredicate {
        SamplePredicate(stateOfMind: .association(association))
    }

    /// States of mind whose valence relates to `valence` as `operatorType` says, as
    /// `predicateForStatesOfMind(withValence:operatorType:)`.
    public static func predicateForStatesOfMind(withValence valence: Double, operatorType: ComparisonPredicateOperator) -> SamplePredicate {
        SamplePredicate(stateOfMind: .valence(valence, operatorType))
    }
}

extension SamplePredicate {
    init(stateOfMind condition: StateOfMindCondition) {
        self.init()
        stateOfMindConditions = [condition]
    }
}
