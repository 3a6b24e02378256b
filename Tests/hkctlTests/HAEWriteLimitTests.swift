import Foundation
import Testing
import TestKit

/// A write to many partitions syncs them on threads of its own (SyncTogether); a process at its memory limit
/// (`ulimit -v`, as HostileImportLimitTests runs hkctl) still stores, syncing on the calling thread what it cannot give
/// a thread, instead of crashing.
struct HAEWriteLimitTests {
    @Test func aPayloadOfTwentyMetricsIsStoredUnderTheMemoryBound() throws {
        try CLIRunner.withTemporaryStore { cli in
            let folder = (cli.storePath as NSString).deletingLastPathComponent
            let path = folder + "/twenty.json"
            let units: [(String, String, Int)] = [
                ("step_count", "count", 1), ("walking_running_distance", "km", 1), ("active_energy", "kcal", 1), ("basal_energy_burned", "kcal", 1),
                ("flights_climbed", "count", 1), ("respiratory_rate", "count/min", 14), ("environmental_audio_exposure", "dBASPL", 60),
                ("headphone_audio_exposure", "dBASPL", 60), ("walking_speed", "km/hr", 5), ("walking_step_length", "cm", 70),
                ("walking_asymmetry_percentage", "%", 3), ("walking_double_support_percentage", "%", 28), ("dietary_water", "mL", 250),
                ("dietary_caffeine", "mg", 1), ("protein", "g", 1), ("carbohydrates", "g", 1), ("total_fat", "g", 1), ("fiber", "g", 1),
                ("sodium", "mg", 1), ("potassium", "mg", 1),
            ]
            let metrics = units.map { "{\"name\":\"\($0.0)\",\"units\":\"\($0.1)\",\"data\":[{\"date\":\"2024-05-10 08:00:00 +0000\",\"qty\":\($0.2)}]}" }
            try Data(("{\"data\":{\"metrics\":[" + metrics.joined(separator: ",") + "]}}").utf8).write(to: URL(fileURLWithPath: path))
            let quoted = [CLIRunner.binaryURL.path, "import", path, "-q"].map { "'" + $0 + "'" }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = ["-c", "ulimit -v 150000; exec " + quoted.joined(separator: " ")]
            process.environment = ["PATH": "/usr/bin:/bin", "HKCTL_STORE": cli.storePath, "TZ": "UTC",
                                   "HKCTL_NOW": "2024-06-01T12:00:00Z", "HOME": NSTemporaryDirectory()]
            let result = try CLIRunner.collect(process)
            expectEqual(result.status, 0, "\(result.status): \(result.stderr)")
            let folders = try FileManager.default.contentsOfDirectory(atPath: cli.storePath + "/samples")
            #expect(folders.count >= 16, "\(folders)")
        }
    }
}
