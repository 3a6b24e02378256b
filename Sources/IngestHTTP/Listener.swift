#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why the server could not start listening.
package struct ListenError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The address.
    package var address: String
    /// The system's reason.
    package var reason: String

    package var description: String {
        "Cannot listen on \(address): \(reason); choose another address or port with --listen HOST:PORT."
    }
}

/// A listening TCP socket, and a pipe that wakes its accept loop (to stop it, also from a signal handler).
package final class Listener: @unchecked Sendable {
    /// The listening socket.
    package let descriptor: Int32
    /// The address it is bound to, with the port the system chose when 0 was asked for.
    package let address: ListenAddress
    /// The pipe's ends: read by ``accept()``, written by ``wake()``; both non-blocking.
    private let wakeRead: Int32
    /// The write end of the wake pipe: writing a byte to it (async-signal-safe) makes ``accept()`` return nil.
    package let wakeDescriptor: Int32

    /// Binds and listens on `address`.
    ///
    /// - Throws: ``ListenError`` when the socket cannot be bound (in use, not permitted, no such address).
    package init(address: ListenAddress) throws(ListenError) {
        let family = address.isIPv6 ? AF_INET6 : AF_INET
        #if canImport(Darwin)
        let socketType = SOCK_STREAM
        #else
        let socketType = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        #endif
        let descriptor = socket(family, socketType, 0)
        guard descriptor >= 0 else { throw ListenError(address: address.description, reason: Self.lastError()) }
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var bound = address
        do throws(ListenError) {
            if address.isIPv6 {
                var socketAddress = sockaddr_in6()
                socketAddress.sin6_family = sa_family_t(AF_INET6)
                socketAddress.sin6_port = address.port.bigEndian
                inet_pton(AF_INET6, address.host, &socketAddress.sin6_addr)
                try Self.bind(descriptor, &socketAddress, address)
                var length = socklen_t(MemoryLayout<sockaddr_in6>.size)
                withUnsafeMutablePointer(to: &socketAddress) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(descriptor, $0, &length) }
                }
                bound.port = UInt16(bigEndian: socketAddress.sin6_port)
            } else {
                var socketAddress = sockaddr_in()
                socketAddress.sin_family = sa_family_t(AF_INET)
                socketAddress.sin_port = address.port.bigEndian
                inet_pton(AF_INET, address.host, &socketAddress.sin_addr)
                try Self.bind(descriptor, &socketAddress, address)
                var length = socklen_t(MemoryLayout<sockaddr_in>.size)
                withUnsafeMutablePointer(to: &socketAddress) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(descriptor, $0, &length) }
                }
                bound.port = UInt16(bigEndian: socketAddress.sin_port)
            }
            guard listen(descriptor, 128) == 0 else { throw ListenError(address: address.description, reason: Self.lastError()) }
        } catch {
            closeDescriptor(descriptor)
            throw error
        }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            closeDescriptor(descriptor)
            throw ListenError(address: address.description, reason: "no pipe: " + Self.lastError())
        }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        self.descriptor = descriptor
        self.address = bound
        self.wakeRead = ends[0]
        self.wakeDescriptor = ends[1]
    }

    deinit {
        closeDescriptor(descriptor)
        closeDescriptor(wakeRead)
        // The write end stays open: a signal handler may still write to it until the process exits.
    }

    private static func bind<Address>(_ descriptor: Int32, _ address: inout Address, _ listen: ListenAddress) throws(ListenError) {
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.bind(descriptor, $0, socklen_t(MemoryLayout<Address>.size))
            }
        }
        guard result == 0 else { throw ListenError(address: listen.description, reason: lastError()) }
    }

    /// Waits for the next connection and returns its socket (blocking, close-on-exec), or nil once ``wake()`` was
    /// called.
    package func accept() -> Int32? {
        while true {
            var entries = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&entries, 2, -1)
            if ready < 0 { if errno == EINTR { continue } else { return nil } }
            if entries[1].revents != 0 { return nil }
            let client = Glibc.accept(descriptor, nil, nil)
            if client < 0 {
                // EAGAIN, ECONNABORTED: the next one. EMFILE, ENOBUFS: out of descriptors or memory for a moment;
                // pause briefly instead of spinning on a socket that stays ready.
                if errno != EAGAIN && errno != EINTR && errno != ECONNABORTED { usleep(10_000) }
                continue
            }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) & ~O_NONBLOCK)
            return client
        }
    }

    /// A connection already waiting in the backlog (one that connected before the server was stopped), without
    /// waiting for one: nil when there is none.
    package func acceptWaiting() -> Int32? {
        let client = Glibc.accept(descriptor, nil, nil)
        guard client >= 0 else { return nil }
        _ = fcntl(client, F_SETFD, FD_CLOEXEC)
        _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) & ~O_NONBLOCK)
        return client
    }

    /// Makes ``accept()`` return nil, now and from now on.
    package func wake() {
        var byte: UInt8 = 1
        _ = write(wakeDescriptor, &byte, 1)
    }

    private static func lastError() -> String { String(cString: strerror(errno)) }
}
