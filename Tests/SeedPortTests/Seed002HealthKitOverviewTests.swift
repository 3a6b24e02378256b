// Seed 002_def4a6a4f263dec8.txt: an overview of HealthKit in prose (what the store holds, the kinds of query, the
// long-running queries, how to save samples). It has no Swift snippet, so there is nothing to port and no test here;
// the APIs it names (sample, anchored, statistics, statistics collection and source queries, observer queries,
// `quantityType(forIdentifier:)`, `save(_:withCompletion:)`) are exercised by the ports of seeds 000, 001 and 003.
