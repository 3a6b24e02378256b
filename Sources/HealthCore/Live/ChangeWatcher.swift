#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The thread behind ``StoreChangeMonitor``: waits in `poll(2)` on a stop pipe and, on Linux, an inotify descriptor;
/// without inotify it looks at the store's change files every ``pollingInterval`` milliseconds instead.
final class ChangeWatcher: @unchecked Sendable {
    /// The files every write to a store rewrites: the change counter (before the lines) and the lock record (after).
    static let watchedNames: Set<String> = ["sequence", ".lock"]
    /// How often the fallback looks at the files, in milliseconds.
    static let pollingInterval: Int32 = 500

    private let directory: String
    private let onChange: @Sendable () -> Void
    private let lock = Lock()
    private var stopped = false
    /// The stop pipe: ``stop()`` writes to `wake[1]`; the thread polls `wake[0]` and closes both when it ends.
    private var wake: [Int32] = [-1, -1]
    #if canImport(Glibc)
    private let notifications: InotifyWatch?
    #endif

    /// Whether inotify tells the thread of changes.
    var usesNotifications: Bool {
        #if canImport(Glibc)
        return notifications != nil
        #else
        return false
        #endif
    }

    /// Arms the watch (so a change after this returns is never missed) and starts the thread.
    init(directory: String, polling: Bool, onChange: @escaping @Sendable () -> Void) {
        self.directory = directory
        self.onChange = onChange
        #if canImport(Glibc)
        notifications = polling ? nil : InotifyWatch(directory: directory)
        #endif
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            wake = fds
            for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        }
        let start = StoreFingerprint(directory: directory)
        WorkerThread { [self] in run(from: start) }.start()
    }

    /// Ends the thread; safe to call from any thread, any number of times.
    func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return }
        stopped = true
        if wake[1] >= 0 {
            var byte: UInt8 = 1
            _ = write(wake[1], &byte, 1)
        }
    }

    private var isStopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopped
    }

    private func run(from start: StoreFingerprint) {
        var fingerprint = start
        while !isStopped {
            var fds = [pollfd(fd: wake[0], events: Int16(POLLIN), revents: 0)]
            #if canImport(Glibc)
            if let notifications { fds.append(pollfd(fd: notifications.fd, events: Int16(POLLIN), revents: 0)) }
            #endif
            // Without a stop pipe (no descriptors left) a short timeout still sees stop() promptly.
            let timeout: Int32 = wake[0] < 0 ? 100 : usesNotifications ? -1 : Self.pollingInterval
            let ready = poll(&fds, nfds_t(fds.count), timeout)
            if ready < 0 && errno != EINTR { break }
            if isStopped || fds[0].revents != 0 { break }
            var changed = false
            #if canImport(Glibc)
            if let notifications, fds.count > 1, fds[1].revents != 0 { changed = notifications.readEvents() }
            #endif
            if !usesNotifications {
                let now = StoreFingerprint(directory: directory)
                changed = now != fingerprint
                fingerprint = now
            }
            if changed && !isStopped { onChange() }
        }
        finish()
    }

    /// Closes the descriptors once the thread is done with them (``stop()`` no longer writes once `stopped` is set).
    private func finish() {
        lock.lock()
        defer { lock.unlock() }
        stopped = true
        for fd in wake where fd >= 0 { close(fd) }
        wake = [-1, -1]
        #if canImport(Glibc)
        notifications?.close()
        #endif
    }
}

/// What the polling fallback compares: the size, change time and inode of the files every write rewrites.
struct StoreFingerprint: Equatable {
    private var files: [[Int64]] = []

    init(directory: String) {
        for name in ChangeWatcher.watchedNames.sorted() {
            var info = stat()
            guard stat(directory + "/" + name, &info) == 0 else {
                files.append([])
                continue
            }
            let modified = POSIXFile.modificationTime(info)
            files.append([Int64(info.st_ino), Int64(info.st_size), modified.seconds, modified.nanoseconds])
        }
    }
}
