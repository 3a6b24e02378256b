// Fuzz target: the store's line reader: line splitting, the sample and tombstone decoders, torn-write detection.
import Foundation
#if !HKCTL_FUZZ_ONE_MODULE
// The test suite's smoke (fuzz/smoke) compiles this harness in a test target of its own; `fuzz/run` compiles it
// inside HealthCore's module (-D HKCTL_FUZZ_ONE_MODULE), where these modules are the module itself.
@testable import HealthCore
#endif


func fuzzStoreLine(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let buffer = UnsafeBufferPointer(start: data.assumingMemoryBound(to: UInt8.self), count: size)
    var codec = SampleLineCodec(catalogue: .standard, timeZone: .gmt)
    StoreLineReader.forEachLine(in: buffer) { line in
        let text = UnsafeBufferPointer(rebasing: buffer[line.range])
        let checked = StoreLineReader.checkSampleLine(text, codec: &codec)
        if let sample = checked.sample {
            // What decodes must encode and decode back to the same sample.
            let again = Array(codec.encode(sample, sequence: checked.sequence > 0 ? checked.sequence : nil).utf8)
            let round = again.withUnsafeBufferPointer { try? codec.decode($0) }
            if round?.uuid != sample.uuid || round?.start != sample.start { fatalError("round trip changed the sample") }
        }
        _ = StoreLineReader.checkTombstoneLine(text)
        _ = StoreLineReader.isTornWrite(text)
    }
    return 0
}
