import Foundation
import Glibc
import Synchronization

/// A throwaway `redis-server` on a free loopback port, with `appendonly yes` and `appendfsync
/// always` in its own temporary directory, for the Redis store tests. (With the default
/// `everysec`, Redis may postpone writing its append-only file for up to two seconds while an
/// fsync is slow, and still answer: a SIGKILL then loses an acknowledged write. The tests that
/// kill it assert that nothing acknowledged is lost, which `always` promises.)
///
/// The server runs under a small `sh` watchdog that holds our end of a pipe: when this process
/// ends (even by a crash or `kill -9`), the pipe closes and the watchdog stops the server, so no
/// server outlives the tests. `stop` and `start` restart it on the same port and directory (an
/// outage); `kill` ends it with SIGKILL (no shutdown, no final AOF rewrite).
///
/// If `redis-server` is not installed, `start` throws — the tests fail, they do not skip: CI
/// installs it (`scripts/install-deps test`).
final class RedisServer: Sendable {
    let port: Int
    let databases: Int
    /// The append-only file's `appendfsync` (`everysec`, Redis' default, or `always`).
    let appendfsync: String
    let removeDirectoryOnExit: Bool
    /// Whether it is a node of a Redis Cluster.
    let clusterNode: Bool
    let directory = TemporaryDirectory()
    private let running = Mutex<Running?>(nil)

    private struct Running {
        /// The `sh` watchdog and the server it started.
        let watchdog: pid_t
        let server: pid_t
        /// Our (write) end of the watchdog's stdin.
        let control: Int32
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// One server for the whole test process; every `StoreKind.redis` store gets its own database.
    static let shared: Result<RedisServer, Failure> = Result {
        try RedisServer(databases: 4_096, removeDirectoryOnExit: true)
    }
        .mapError { $0 as? Failure ?? Failure(description: "\($0)") }
    private static let nextDatabase = Mutex(1)

    /// A database of the shared server that no other test uses.
    static func freshDatabase() -> Int {
        nextDatabase.withLock { next in
            defer { next += 1 }
            return next
        }
    }

    /// - Parameter removeDirectoryOnExit: the watchdog deletes the data directory once the server
    ///   has stopped (for the shared server, which is never released; others remove theirs on release).
    /// - Parameter appendfsync: `always` (the default: see above), or `everysec` for a test that
    ///   wants Redis' own default.
    /// - Parameter clusterPort: a node of a Redis Cluster (`cluster-enabled yes`) on this port
    ///   (its bus on port + 10000), for `RedisCluster`.
    init(
        databases: Int = 16, removeDirectoryOnExit: Bool = false, appendfsync: String = "always", clusterPort: Int? = nil
    ) throws {
        self.databases = databases
        self.appendfsync = appendfsync
        self.removeDirectoryOnExit = removeDirectoryOnExit
        self.clusterNode = clusterPort != nil
        self.port = try clusterPort ?? Self.freeLoopbackPort()
        try start()
    }

    deinit {
        stop()
    }

    func url(database: Int = 0) -> String {
        "redis://127.0.0.1:\(port)/\(database)"
    }

    /// Starts the server (on the same port and directory as before) and waits until it accepts
    /// connections (at most 10 s).
    func start() throws {
        try running.withLock { running in
            guard running == nil else { return }
            running = try launch()
        }
        let deadline = Date(timeIntervalSinceNow: 10)
        while !Self.accepts(port: port) {
            guard Date() < deadline else {
                throw Failure(description: "redis-server did not start on port \(port): \(log())")
            }
            usleep(10_000)
        }
    }

    /// Stops the server gracefully (SIGTERM: it finishes writing its append-only file) and waits
    /// for it to exit.
    func stop() {
        guard let running = running.withLock({ $0.take() }) else { return }
        close(running.control)
        Self.reap(running.watchdog)
    }

    /// Kills the server with SIGKILL and waits for it to exit.
    func kill() {
        guard let running = running.withLock({ $0.take() }) else { return }
        Glibc.kill(running.server, SIGKILL)
        close(running.control)
        Self.reap(running.watchdog)
    }

    /// The server's log (for failure messages).
    func log() -> String {
        (try? String(contentsOfFile: directory.path + "/redis.log", encoding: .utf8)) ?? "(no log)"
    }

    // MARK: Internals

    private func launch() throws -> Running {
        guard let executable = Self.redisServerPath() else {
            throw Failure(
                description: "redis-server is not installed (apt-get install -y redis-server, or "
                    + "scripts/install-deps test): the Redis store tests need it")
        }
        // $0 redis-server, $1 port, $2 dir, $3 databases, $4 "remove" to delete dir at the end, $5 appendfsync,
        // $6 "cluster" for a cluster node.
        // Prints the server's pid, then waits for stdin to close (our pipe: stop() or this process
        // ending) and stops the server.
        let script = #"""
            cluster=
            [ "$6" = cluster ] && cluster="--cluster-enabled yes --cluster-config-file nodes.conf --cluster-node-timeout 1000"
            "$0" --port "$1" --bind 127.0.0.1 --save '' --appendonly yes --appendfsync "$5" --dir "$2" \
                 --databases "$3" --logfile "$2/redis.log" --daemonize no $cluster </dev/null >/dev/null 2>&1 &
            pid=$!
            echo "$pid"
            read -r _ || true
            kill -TERM "$pid" 2>/dev/null
            wait "$pid"
            if [ "$4" = remove ]; then rm -rf "$2"; fi
            """#
        var control: [Int32] = [-1, -1]
        var output: [Int32] = [-1, -1]
        guard Self.closeOnExecPipe(&control) else { throw Failure(description: "pipe: \(errno)") }
        guard Self.closeOnExecPipe(&output) else {
            close(control[0])
            close(control[1])
            throw Failure(description: "pipe: \(errno)")
        }
        let spawned = Self.spawn(
            "/bin/sh",
            [
                "sh", "-c", script, executable, String(port), directory.path, String(databases),
                removeDirectoryOnExit ? "remove" : "keep", appendfsync, clusterNode ? "cluster" : "single",
            ],
            stdin: control[0], stdout: output[1])
        close(control[0])
        close(output[1])
        defer { close(output[0]) }
        guard case .success(let watchdog) = spawned else {
            close(control[1])
            throw Failure(description: "cannot run /bin/sh: \(spawned)")
        }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while line.last != UInt8(ascii: "\n"), read(output[0], &byte, 1) == 1 {
            line.append(byte)
        }
        guard let server = pid_t(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            close(control[1])
            Self.reap(watchdog)
            throw Failure(description: "redis-server did not start: \(log())")
        }
        return Running(watchdog: watchdog, server: server, control: control[1])
    }

    /// `posix_spawn` with a clean signal mask and default handlers.
    ///
    /// Foundation's `Process` passes on the spawning thread's signal mask, and test threads block
    /// most signals: a `redis-server` started that way ignores SIGTERM and an `sh` never returns
    /// from `wait`. Hence this.
    private static func spawn(_ path: String, _ arguments: [String], stdin: Int32, stdout: Int32) -> Result<pid_t, Failure> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdin, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGTERM, SIGINT, SIGCHLD, SIGHUP] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, path, &actions, &attributes, argv, environ)
        return status == 0 ? .success(pid) : .failure(Failure(description: "posix_spawn: \(status)"))
    }

    /// `pipe` with both ends close-on-exec, so no other child inherits them (a watchdog whose
    /// write end leaked into another process would never see end-of-file).
    private static func closeOnExecPipe(_ fds: inout [Int32]) -> Bool {
        guard pipe(&fds) == 0 else { return false }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return true
    }

    /// Waits for a child to exit.
    private static func reap(_ pid: pid_t) {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    }

    private static func redisServerPath() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let candidates = path.split(separator: ":").map { "\($0)/redis-server" }
            + ["/usr/bin/redis-server", "/usr/local/bin/redis-server", "/usr/sbin/redis-server"]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// A port the kernel just handed out for 127.0.0.1 (free unless someone grabs it right now).
    static func freeLoopbackPort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(errno)") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(fd, socketAddress, length) == 0 && getsockname(fd, socketAddress, &length) == 0
            }
        }
        guard bound else { throw Failure(description: "bind: \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// True if something accepts TCP connections on 127.0.0.1:`port`.
    static func accepts(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                connect(fd, socketAddress, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// Runs `redis-cli -p PORT -n DB args...` and returns its output (for inspecting the layout).
    func cli(database: Int, _ arguments: String...) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["redis-cli", "-p", String(port), "-n", String(database)] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
