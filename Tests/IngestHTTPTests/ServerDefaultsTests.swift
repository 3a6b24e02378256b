import IngestHTTP
import Testing

/// The numbers issue 30 §3, README and `hkctl serve --help` give: 127.0.0.1:8787, bodies up to 64 MB, a head whole
/// within 10 s, a body never silent for 30 s. `ServeDefaultsTests` holds the running server to them.
struct ServerDefaultsTests {
    @Test func theDefaultsAreTheDocumentedOnes() {
        let limits = ServerLimits()
        #expect(limits.maxBodyBytes == 64 * 1024 * 1024)
        #expect(limits.headerTimeout == 10)
        #expect(limits.bodyTimeout == 30)
        #expect(ListenAddress.standard.description == "127.0.0.1:8787")
    }
}
