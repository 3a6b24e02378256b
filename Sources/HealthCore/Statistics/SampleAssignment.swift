/// How a sample is placed in buckets, from the query's date options.
enum SampleAssignment {
    /// Default: cumulative samples are split across intervals by time; discrete readings belong to the interval
    /// where they start.
    case prorated
    /// `strictStartDate` (alone or with `strictEndDate`): a sample belongs wholly to the interval where it starts.
    case wholeAtStart
    /// `strictEndDate` alone: a sample belongs wholly to the interval where it ends.
    case wholeAtEnd

    init(_ options: SamplePredicate.DateOptions) {
        if options.contains(.strictStartDate) {
            self = .wholeAtStart
        } else if options.contains(.strictEndDate) {
            self = .wholeAtEnd
        } else {
            self = .prorated
        }
    }

    /// The instant that places a whole sample (start, or end with ``wholeAtEnd``).
    func instant(of sample: Sample) -> Date { instant(start: sample.start, end: sample.end) }

    /// The instant that places a whole sample from `start` to `end`.
    func instant(start: Date, end: Date) -> Date { self == .wholeAtEnd ? end : start }
}
