import Foundation
import Testing
import TestKit
@testable import HealthCore

/// GPX 1.1 from a workout's route (the built binary's output is parsed by an XML parser in
/// WorkoutRouteCLITests).
struct GPXWriterTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: gPXWriterTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    static let start = ISODate.parse("2024-03-02T21:00:00Z")!

    static func workout(_ locations: [WorkoutRoute.Location], name: String? = nil) -> Workout {
        var metadata: [String: MetadataValue] = [:]
        if let name { metadata["HAEWorkoutName"] = .string(name) }
        return Workout(activity: .running, start: start, end: start.addingTimeInterval(600),
                       detail: WorkoutDetail(duration: 600, route: locations.isEmpty ? nil : WorkoutRoute(locations: locations)),
                       source: "Watch", created: start, metadata: metadata)
    }

    func aTrackWithOnePointPerLocationInUTC() throws {
        let text = try GPXWriter.document(for: Self.workout([
            .init(timestamp: Self.start, latitude: -33.8688, longitude: 151.2093, altitude: 10.5, speed: 3),
            .init(timestamp: Self.start.addingTimeInterval(1.25), latitude: 0.00001, longitude: -0.000000001),
        ]))
        #expect(text.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.1\" creator=\"hkctl\" xmlns=\"http://www.topografix.com/GPX/1/1\">"))
        #expect(text.contains("<trk>\n    <name>running</name>\n    <type>running</type>\n    <trkseg>\n"))
        #expect(text.contains("<trkpt lat=\"-33.8688\" lon=\"151.2093\"><ele>10.5</ele><time>2024-03-02T21:00:00Z</time></trkpt>"))
        // No exponents (XML Schema decimals), milliseconds kept, no elevation when unknown.
        #expect(text.contains("<trkpt lat=\"0.00001\" lon=\"-0.000000001\"><time>2024-03-02T21:00:01.250Z</time></trkpt>"))
        expectEqual(text.components(separatedBy: "<trkpt ").count, 3)
        #expect(text.hasSuffix("    </trkseg>\n  </trk>\n</gpx>\n"))
    }

    func namesAreEscaped() throws {
        let text = try GPXWriter.document(for: Self.workout([.init(timestamp: Self.start, latitude: 1, longitude: 2)],
                                                            name: "Paddle & <Surf> \"x\" 'y'"))
        #expect(text.contains("<name>Paddle &amp; &lt;Surf&gt; &quot;x&quot; &apos;y&apos;</name>"))
    }

    func aWorkoutWithoutARouteIsAnError() {
        let workout = Self.workout([])
        #expect(throws: GPXError.noRoute(workout.uuid.lowercasedText)) { try GPXWriter.document(for: workout) }
        var detail = workout.detail
        detail.route = WorkoutRoute(locations: [])
        let empty = workout.replacing(detail: detail)
        #expect(throws: GPXError.noRoute(workout.uuid.lowercasedText)) { try GPXWriter.document(for: empty) }
    }
}

/// The checks ``GPXWriterTests/checks(_:)`` runs.
private let gPXWriterTestsChecks: [Check<GPXWriterTests>] = [
    Check("aTrackWithOnePointPerLocationInUTC", GPXWriterTests.aTrackWithOnePointPerLocationInUTC),
    Check("namesAreEscaped", GPXWriterTests.namesAreEscaped),
    Check("aWorkoutWithoutARouteIsAnError", GPXWriterTests.aWorkoutWithoutARouteIsAnError),
]
