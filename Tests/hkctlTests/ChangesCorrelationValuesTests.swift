import Foundation
import Testing
import TestKit

/// Issue 31: `changes` and `watch` give a correlation the same fields `list --format json` gives (blood pressure's
/// systolic and diastolic, food's nutrients), not nulls and an empty list.
struct ChangesCorrelationValuesTests {
    /// The JSON objects of `text` (one per line, or the `added` array of one object) keyed by uuid.
    private func added(_ text: String) throws -> [String: NSDictionary] {
        var objects: [Any] = []
        for line in text.split(separator: "\n") {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            if let many = object["added"] as? [Any] { objects += many } else if let one = object["added"] { objects.append(one) }
        }
        var byUUID: [String: NSDictionary] = [:]
        for case let object as [String: Any] in objects { byUUID[object["uuid"] as! String] = object as NSDictionary }
        return byUUID
    }

    @Test func changesAndWatchShowCorrelationValuesAsListDoes() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["add", "blood-pressure", "120/80", "-q"]).status, 0)
            try expectEqual(cli.run(["add", "food", "Oatmeal", "--energy", "350kcal", "--protein", "12g", "-q"]).status, 0)
            let pressure = try added(cli.run(["list", "blood-pressure", "--format", "json"]).stdout.replacingOccurrences(of: "\n", with: "")
                .wrappedAsAdded())
            let food = try added(cli.run(["list", "food", "--format", "json"]).stdout.replacingOccurrences(of: "\n", with: "")
                .wrappedAsAdded())
            #expect(pressure.count == 1 && food.count == 1)
            let listed = pressure.merging(food) { first, _ in first }
            expectEqual((listed.values.first { $0["systolic"] != nil }?["systolic"] as? Double), 120)
            for format in ["json", "jsonl"] {
                let changes = try added(cli.run(["changes", "--format", format]).stdout)
                expectEqual(changes.count, 6, "\(format): 4 members and 2 correlations")
                for (uuid, object) in listed {
                    expectEqual(changes[uuid], object, "\(format): \(uuid) differs from list's")
                }
            }
            // watch prints a correlation another process saves, with its values.
            let process = Process()
            process.executableURL = CLIRunner.binaryURL
            process.arguments = ["watch", "--interval", "50"]
            process.environment = ["HKCTL_STORE": cli.storePath, "TZ": "UTC", "HKCTL_NOW": "2024-06-01T12:00:00Z"]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
            Thread.sleep(forTimeInterval: 0.4)
            try expectEqual(cli.run(["add", "blood-pressure", "131/84", "-q"]).status, 0)
            let handle = output.fileHandleForReading
            _ = fcntl(handle.fileDescriptor, F_SETFL, fcntl(handle.fileDescriptor, F_GETFL) | O_NONBLOCK)
            var seen = Data()
            let deadline = Date().addingTimeInterval(3)
            while Date() < deadline && !String(decoding: seen, as: UTF8.self).contains("\"anchor\"") {
                var buffer = [UInt8](repeating: 0, count: 4096)
                let count = read(handle.fileDescriptor, &buffer, buffer.count)
                if count > 0 { seen.append(contentsOf: buffer[0..<count]) } else { Thread.sleep(forTimeInterval: 0.02) }
            }
            process.interrupt()
            process.waitUntilExit()
            let watched = try added(String(decoding: seen, as: UTF8.self).split(separator: "\n").filter { !$0.contains("\"anchor\"") }
                .joined(separator: "\n"))
            let correlation = try #require(watched.values.first { $0["type"] as? String == "HKCorrelationTypeIdentifierBloodPressure" })
            expectEqual(correlation["systolic"] as? Double, 131)
            expectEqual(correlation["diastolic"] as? Double, 84)
        }
    }
}

private extension String {
    /// A `list --format json` array as one `{"added":[…]}` line.
    func wrappedAsAdded() -> String { "{\"added\":" + self + "}" }
}
