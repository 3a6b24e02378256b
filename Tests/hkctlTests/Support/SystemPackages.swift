import Foundation

/// Shell commands for tests, and Debian packages installed on demand (as root, with time limits).
enum SystemPackages {
    private static let lock = NSLock()

    /// Runs `script` with bash; the status, standard output and standard error.
    @discardableResult
    static func shell(_ script: String, environment: [String: String] = [:]) throws -> (status: Int32, out: String, err: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script]
        var env = ProcessInfo.processInfo.environment
        env["PATH"] = (env["PATH"] ?? "") + ":/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin"
        env.merge(environment) { $1 }
        process.environment = env
        let result = try CLIRunner.collect(process)
        return (result.status, result.stdout, result.stderr)
    }

    /// Makes sure `command` exists, installing the Debian `package` with apt-get when it is missing.
    ///
    /// - Returns: nil when the command is there, else why it is not (for the skip message).
    static func ensure(_ command: String, package: String) -> String? {
        lock.lock()
        defer { lock.unlock() }
        func present() -> Bool { (try? shell("command -v \(command)"))?.status == 0 }
        if present() { return nil }
        guard getuid() == 0 else { return "\(command) is not installed and the tests do not run as root to install \(package)" }
        guard (try? shell("command -v apt-get"))?.status == 0 else { return "\(command) is not installed and there is no apt-get" }
        // Bounded: waits at most 2 minutes for the dpkg lock, 15 minutes in all.
        let install = "DEBIAN_FRONTEND=noninteractive timeout 900 apt-get install -y -q -o DPkg::Lock::Timeout=120 \(package)"
        if (try? shell(install))?.status != 0 {
            _ = try? shell("timeout 300 apt-get update -q -o DPkg::Lock::Timeout=120")
            let second = try? shell(install)
            if second?.status != 0 || !present() {
                return "\(package) could not be installed with apt-get: \(second?.err.suffix(300) ?? "")"
            }
        }
        return present() ? nil : "\(package) was installed but \(command) is not on PATH"
    }

    static let chromium = ensure("chromium", package: "chromium")
    static let zsh = ensure("zsh", package: "zsh")
    static let fish = ensure("fish", package: "fish")
}
