import Foundation
import Testing
import TestKit

/// A store kept on a disk that `/etc/fstab` mounts: while the disk is missing, writers refuse to make a new store on
/// its bare mount point (where the samples would be hidden once the disk is back), and once it is mounted the store is
/// made on the disk. Acted out in a mount namespace of its own (`unshare -m`), with a test `/etc/fstab` bound over the
/// real one and a tmpfs as the disk.
struct MissingDiskCLITests {
    /// Whether this process may mount inside a mount namespace of its own (root, as in CI containers).
    static let canMountInANamespace: Bool = {
        guard CLIRunner.canUnshareMounts else { return false }
        let folder = TestSupport.scratchRoot + "hkctl-mount-probe-" + UUID().uuidString
        guard (try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)) != nil else { return false }
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        process.arguments = ["-m", "/bin/sh", "-c", "mount -t tmpfs none \"$1\"", "sh", folder]
        guard let result = try? CLIRunner.collect(process) else { return false }
        return result.status == 0
    }()

    /// Runs `script` with `sh` in a mount namespace where `/etc/fstab` names `disk` as a `noauto` mount point; `$HK` is
    /// the binary, `$DISK` the mount point. The store is `$DISK/health`.
    private func runWithFstab(naming disk: String, in folder: String, _ script: String) throws -> CLIResult {
        let fstab = folder + "/fstab"
        try "# test table\nLABEL=backup \(disk) ext4 noauto,nofail 0 0\n".write(toFile: fstab, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        process.arguments = ["-m", "/bin/sh", "-c", "mount --bind \"$FSTAB\" /etc/fstab || exit 99\n" + script]
        process.environment = ["PATH": "/usr/bin:/bin:/usr/sbin:/sbin", "HK": CLIRunner.binaryURL.path, "DISK": disk,
                               "FSTAB": fstab, "HKCTL_STORE": disk + "/health", "TZ": "UTC",
                               "HKCTL_NOW": "2024-06-01T12:00:00Z", "HOME": folder]
        return try CLIRunner.collect(process)
    }

    /// A temporary folder holding the disk's mount point, `folder/disk`, empty (the disk not mounted).
    private func withMountPoint(_ body: (_ folder: String, _ disk: String) throws -> Void) throws {
        try TestSupport.withTemporaryDirectory { folder in
            try FileManager.default.createDirectory(atPath: folder + "/disk", withIntermediateDirectories: false)
            try body(folder, folder + "/disk")
        }
    }

    @Test(.enabled(if: canMountInANamespace, "needs root (or user namespaces) to mount in a namespace of its own"))
    func aWriteWhileTheDiskIsMissingMakesNoStoreOnTheBareMountPoint() throws {
        try withMountPoint { folder, disk in
            let missing = try runWithFstab(naming: disk, in: folder, """
                "$HK" add water 250mL --at 08:00 -q; echo "add: $?"
                printf '{"data":{"metrics":[{"name":"step_count","units":"count","data":[{"qty":100,"date":"2024-06-01 08:00:00 +0000"}]}]}}' > "$HOME/push.json"
                "$HK" import "$HOME/push.json" -q; echo "import: $?"
                "$HK" list water; echo "list: $?"
                (cd "$HOME" && HKCTL_STORE=disk/health "$HK" add water 250mL -q; echo "relative: $?")
                """)
            #expect(missing.stdout.contains("add: 73"), "\(missing.stdout)\(missing.stderr)")
            #expect(missing.stdout.contains("import: 73"), "\(missing.stdout)\(missing.stderr)")
            #expect(missing.stdout.contains("relative: 73"), "a relative store path: \(missing.stdout)\(missing.stderr)")
            #expect(missing.stderr.contains("'\(disk)', which /etc/fstab names as a mount point, has nothing mounted on it"),
                    "\(missing.stderr)")
            #expect(missing.stderr.contains("mkdir -p -m 700 \(disk)/health"), "\(missing.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: disk).isEmpty, "nothing made on the bare mount point")

            // The disk mounted: the store is made on it.
            let mounted = try runWithFstab(naming: disk, in: folder, """
                mount -t tmpfs -o mode=700 none "$DISK" || exit 98
                "$HK" add water 250mL --at 08:00 -q; echo "add: $?"
                "$HK" list water --format csv | tail -n +2 | wc -l
                """)
            #expect(mounted.stdout.contains("add: 0"), "\(mounted.stdout)\(mounted.stderr)")
            #expect(mounted.stdout.hasSuffix("1\n"), "one sample on the disk: \(mounted.stdout)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: disk).isEmpty, "the store was on the tmpfs, gone with it")
        }
    }

    /// `hkctl serve` whose store's disk goes missing while it runs: a push gets 503 with Retry-After (the app sends it
    /// again later), not 401 (its token is on the missing disk), and nothing is made on the bare mount point.
    @Test(.enabled(if: canMountInANamespace, "needs root (or user namespaces) to mount in a namespace of its own"))
    func aPushWhileTheDiskIsMissingIsToldToComeBackLater() throws {
        try withMountPoint { folder, disk in
            let result = try runWithFstab(naming: disk, in: folder, #"""
                mount -t tmpfs -o mode=700 none "$DISK" || exit 98
                "$HK" serve token create iphone > "$HOME/token" && "$HK" auth grant iphone --share steps || exit 97
                "$HK" serve --listen 127.0.0.1:0 2> "$HOME/serve.log" &
                server=$!
                for i in $(seq 200); do grep -q "listening on" "$HOME/serve.log" && break; sleep 0.05; done
                port=$(sed -n 's/.*listening on 127.0.0.1:\([0-9]*\).*/\1/p' "$HOME/serve.log" | head -n 1)
                umount -l "$DISK" || exit 96
                python3 - "$port" "$(cat "$HOME/token")" <<'PY'
                import http.client, sys
                connection = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]), timeout=20)
                body = b'{"data":{"metrics":[{"name":"step_count","units":"count","data":[{"qty":5,"date":"2024-06-01 08:00:00 +0000"}]}]}}'
                connection.request("POST", "/ingest", body, {"Authorization": "Bearer " + sys.argv[2], "Content-Type": "application/json"})
                response = connection.getresponse()
                print("status:", response.status, "retry-after:", response.getheader("Retry-After"))
                print("body:", response.read().decode())
                PY
                kill -TERM $server; wait $server
                cat "$HOME/serve.log" >&2
                ls -A "$DISK" | wc -l
                """#)
            #expect(result.stdout.contains("status: 503 retry-after: 10"), "\(result.stdout)\(result.stderr)")
            #expect(result.stdout.contains("the disk it is on is not mounted"), "\(result.stdout)")
            #expect(!result.stdout.contains(disk), "an unknown client is told no path: \(result.stdout)")
            #expect(result.stderr.contains("has nothing mounted on it"), "the log line says which: \(result.stderr)")
            #expect(result.stdout.hasSuffix("\n0\n"), "nothing made on the bare mount point: \(result.stdout)")
        }
    }

    /// Someone who does want a store on the folder beneath makes its folder first, as the message says; a store that
    /// exists is used wherever it is.
    @Test(.enabled(if: canMountInANamespace, "needs root (or user namespaces) to mount in a namespace of its own"))
    func aStoreFolderMadeByHandOrAnExistingStoreIsUsed() throws {
        try withMountPoint { folder, disk in
            let result = try runWithFstab(naming: disk, in: folder, """
                HKCTL_STORE="$DISK" "$HK" add water 1L -q; echo "mount point itself: $?"
                mkdir -p -m 700 "$DISK/health"
                "$HK" add water 250mL --at 08:00 -q; echo "first: $?"
                "$HK" add water 300mL --at 09:00 -q; echo "second: $?"
                """)
            #expect(result.stdout.contains("first: 0"), "\(result.stdout)\(result.stderr)")
            #expect(result.stdout.contains("second: 0"), "\(result.stdout)\(result.stderr)")
            #expect(result.stdout.contains("mount point itself: 73"), "the bare mount point is never a new store: \(result.stdout)")
            #expect(FileManager.default.fileExists(atPath: disk + "/health/hkctl-store.json"))
            #expect(!FileManager.default.fileExists(atPath: disk + "/hkctl-store.json"))
        }
    }
}
