import CHiredis
import Glibc
import Synchronization

/// One non-blocking connection to one Redis node, on one `StoreLoop`: commands are appended to
/// an output buffer and written once per round (pipelined), replies arrive through the loop's
/// epoll and are handed, in order, to the commands' reply handlers.
///
/// Connecting: on the first command (and the first after a failure's back-off), without waiting:
/// `AUTH` and `SELECT` go first, then what was queued. A failure (refused, reset, protocol error,
/// no reply within the timeout) closes the socket and fails every command in flight with
/// `.unavailable` (their outcome is unknown); for the back-off that follows (50 ms, doubling to
/// 1 s while failures repeat) new commands fail at once, then the next one connects again. The
/// back-off ends early once another link (another loop's) to the same node has connected: when
/// Redis returns, every loop follows the first that sees it, so no request is refused by a loop
/// that has not tried yet while another already answers.
///
/// With `waitReplicas` > 0, the writes (`RedisCommand.writes`) of one round are followed by one
/// `WAIT n timeout`; their handlers get their replies only once it answers, and `.unavailable`
/// instead if fewer than n replicas acknowledged them.
///
/// - Important: used by its loop's thread only.
final class RedisLink {
    typealias Handler = (Result<RedisValue, StoreError>) -> Void

    /// Settings shared by every link of a store.
    struct Settings: Sendable {
        var timeoutMillis: Int
        var user: String?
        var password: String?
        var database: Int
        var waitReplicas: Int
        var waitTimeoutMillis: Int
        let resolver: RedisResolver
        let arrivals = Arrivals()
    }

    /// When a link to each node last completed its handshake, shared by the links of a store.
    final class Arrivals: Sendable {
        private let readyAt = Mutex<[RedisNodeAddress: Int64]>([:])

        func record(_ address: RedisNodeAddress, at millis: Int64) {
            readyAt.withLock { $0[address] = millis }
        }

        /// Whether some link connected to `address` after `millis`.
        func connected(_ address: RedisNodeAddress, after millis: Int64) -> Bool {
            readyAt.withLock { ($0[address] ?? .min) > millis }
        }
    }

    private enum State {
        case idle, connecting, ready
        case backingOff(since: Int64, until: Int64)
    }

    private struct InFlight {
        let handler: Handler?
        let sentAt: Int64
    }

    /// The writes of one round, held until their `WAIT` answers.
    private final class WaitBatch {
        var held: [(Result<RedisValue, StoreError>, Handler)] = []
    }

    let address: RedisNodeAddress
    private let loop: any StoreLoop
    private let settings: Settings
    private var state = State.idle
    private var fd: Int32 = -1
    private var output: [UInt8] = []
    private var outputOffset = 0
    private var inFlight: [InFlight] = []
    private var inFlightHead = 0
    private var reader: RedisReplyReader?
    private var flushScheduled = false
    private var timerArmed = false
    private var writing = false
    private var backoffMillis: Int64 = 50
    private var waitBatch: WaitBatch?
    private static let readSize = 16 * 1024
    private let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: RedisLink.readSize, alignment: 16)

    /// Replies that answer no command (pub/sub messages).
    var onPush: ((RedisValue) -> Void)?
    /// Called after the link failed (its in-flight commands already failed).
    var onFailure: ((StoreError) -> Void)?
    /// Called when a connection is ready for commands (its handshake done).
    var onReady: (() -> Void)?

    init(address: RedisNodeAddress, loop: any StoreLoop, settings: Settings) {
        self.address = address
        self.loop = loop
        self.settings = settings
    }

    deinit {
        if fd >= 0 {
            loop.unwatch(fd)
            Glibc.close(fd)
        }
        readBuffer.deallocate()
    }

    /// Whether a connection is open or opening.
    var isConnected: Bool {
        switch state {
        case .connecting, .ready: true
        case .idle, .backingOff: false
        }
    }

    /// Commands sent and not answered yet.
    var pendingCount: Int { inFlight.count - inFlightHead }

    /// Queues `command`; `handler` gets its reply (an error reply as `.success(.error)`), or
    /// `.failure` if the connection fails first. A nil handler expects no reply (`SUBSCRIBE`).
    func send(_ command: RedisCommand, _ handler: Handler?) {
        guard ensureConnection() else {
            handler?(.failure(.unavailable("redis \(address): unreachable (retrying shortly)")))
            return
        }
        command.encode(into: &output)
        if let handler {
            if command.writes && settings.waitReplicas > 0 {
                let batch = waitBatch ?? WaitBatch()
                waitBatch = batch
                inFlight.append(InFlight(handler: { result in batch.held.append((result, handler)) }, sentAt: Self.nowMillis()))
            } else {
                inFlight.append(InFlight(handler: handler, sentAt: Self.nowMillis()))
            }
        }
        scheduleFlush()
    }

    /// Closes the connection (the loop stopped, or the store closed): handlers in flight get
    /// `.unavailable`; `onFailure` is not called.
    func close() {
        onFailure = nil
        fail(.unavailable("redis \(address): connection closed"), backOff: false)
    }

    // MARK: Connecting

    /// Connects if needed; false while backing off after a failure.
    private func ensureConnection() -> Bool {
        switch state {
        case .connecting, .ready:
            return true
        case .backingOff(let since, let until):
            if Self.nowMillis() < until && !settings.arrivals.connected(address, after: since) { return false }
            return connect()
        case .idle:
            return connect()
        }
    }

    private func connect() -> Bool {
        guard let host = settings.resolver.numeric(address.host) else {
            fail(.unavailable("redis \(address): cannot resolve \(address.host)"), backOff: true)
            return false
        }
        var inProgress: Int32 = 0
        let socket = wf_tcp_connect(host, Int32(address.port), &inProgress)
        guard socket >= 0 else {
            let message = String(cString: strerror(errno))
            fail(.unavailable("redis \(address): cannot connect: \(message)"), backOff: true)
            return false
        }
        fd = socket
        reader = RedisReplyReader()
        output.removeAll(keepingCapacity: true)
        outputOffset = 0
        writing = inProgress != 0
        guard reader != nil, loop.watch(socket, writing: writing, { [weak self] readable, writable in
            self?.ready(readable: readable, writable: writable)
        }) else {
            Glibc.close(socket)
            fd = -1
            fail(.unavailable("redis \(address): cannot watch the connection"), backOff: true)
            return false
        }
        state = inProgress != 0 ? .connecting : .ready
        handshake()
        armTimer()
        return true
    }

    /// `AUTH` and `SELECT`, ahead of everything else.
    private func handshake() {
        let check: Handler = { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(.error(let message)): fail(.unavailable("redis \(address): handshake refused: \(message)"), backOff: true)
            case .success: break
            case .failure: break
            }
        }
        if let password = settings.password {
            var auth = RedisCommand("AUTH")
            if let user = settings.user { auth.add(user) }
            auth.add(password)
            auth.encode(into: &output)
            inFlight.append(InFlight(handler: check, sentAt: Self.nowMillis()))
        }
        if settings.database != 0 {
            var select = RedisCommand("SELECT")
            select.add(settings.database)
            select.encode(into: &output)
            inFlight.append(InFlight(handler: check, sentAt: Self.nowMillis()))
        }
        var ping = RedisCommand("PING")
        ping.writes = false
        ping.encode(into: &output)
        inFlight.append(InFlight(handler: { [weak self] result in
            guard let self, case .success(let reply) = result else { return }
            if case .error = reply { return }
            backoffMillis = 50
            settings.arrivals.record(address, at: Self.nowMillis())
            onReady?()
        }, sentAt: Self.nowMillis()))
        scheduleFlush()
    }

    // MARK: IO

    private func scheduleFlush() {
        guard !flushScheduled else { return }
        flushScheduled = true
        loop.atEndOfRound { [weak self] in
            guard let self else { return }
            flushScheduled = false
            flush()
        }
    }

    /// Writes the output (with the round's `WAIT`) as far as the socket takes it.
    private func flush() {
        guard fd >= 0 else { return }
        if let batch = waitBatch {
            waitBatch = nil
            var wait = RedisCommand("WAIT")
            wait.add(settings.waitReplicas)
            wait.add(settings.waitTimeoutMillis)
            wait.encode(into: &output)
            let needed = settings.waitReplicas
            inFlight.append(InFlight(handler: { [address] result in
                let shortfall: StoreError?
                switch result {
                case .success(.integer(let acknowledged)) where acknowledged >= needed: shortfall = nil
                case .success(let reply):
                    shortfall = .unavailable("redis \(address): written, but not acknowledged by \(needed) replica(s) in time (WAIT: \(reply))")
                case .failure(let error): shortfall = error
                }
                for (outcome, handler) in batch.held {
                    if let shortfall, case .success = outcome { handler(.failure(shortfall)) } else { handler(outcome) }
                }
            }, sentAt: Self.nowMillis()))
        }
        armTimer()
        if case .connecting = state { return }
        while outputOffset < output.count {
            let written = output.withUnsafeBytes { all in
                Glibc.write(fd, all.baseAddress! + outputOffset, all.count - outputOffset)
            }
            if written < 0 {
                let code = errno
                if code == EINTR { continue }
                if code == EAGAIN || code == EWOULDBLOCK { break }
                fail(.unavailable("redis \(address): write failed: \(String(cString: strerror(code)))"), backOff: true)
                return
            }
            outputOffset += written
        }
        if outputOffset == output.count {
            output.removeAll(keepingCapacity: output.capacity <= 1 << 20)
            outputOffset = 0
        }
        setWriting(outputOffset < output.count)
    }

    private func setWriting(_ on: Bool) {
        guard on != writing, fd >= 0 else { return }
        writing = on
        loop.update(fd, writing: on)
    }

    private func ready(readable: Bool, writable: Bool) {
        if writable {
            if case .connecting = state {
                let error = wf_socket_error(fd)
                guard error == 0 else {
                    fail(.unavailable("redis \(address): cannot connect: \(String(cString: strerror(error)))"), backOff: true)
                    return
                }
                state = .ready
            }
            flush()
        }
        if readable && fd >= 0 { receive() }
    }

    private func receive() {
        while fd >= 0 {
            let count = Glibc.read(fd, readBuffer.baseAddress, Self.readSize)
            if count < 0 {
                let code = errno
                if code == EINTR { continue }
                if code == EAGAIN || code == EWOULDBLOCK { break }
                fail(.unavailable("redis \(address): read failed: \(String(cString: strerror(code)))"), backOff: true)
                return
            }
            if count == 0 {
                fail(.unavailable("redis \(address): connection closed by the server"), backOff: true)
                return
            }
            reader?.feed(UnsafeRawBufferPointer(rebasing: readBuffer[0..<count]))
            deliverReplies()
            if count < Self.readSize { break }
        }
    }

    private func deliverReplies() {
        while fd >= 0, let reader {
            let reply: RedisValue?
            do {
                reply = try reader.next()
            } catch {
                fail(error as? StoreError ?? .unavailable("redis \(address): \(error)"), backOff: true)
                return
            }
            guard let reply else { return }
            if inFlightHead < inFlight.count {
                let entry = inFlight[inFlightHead]
                inFlightHead += 1
                if inFlightHead == inFlight.count {
                    inFlight.removeAll(keepingCapacity: true)
                    inFlightHead = 0
                }
                entry.handler?(.success(reply))
            } else {
                onPush?(reply)
            }
        }
    }

    // MARK: Failures and timeouts

    /// Checks, `timeoutMillis` after the oldest command in flight was sent, that it was answered.
    private func armTimer() {
        guard !timerArmed, fd >= 0, inFlightHead < inFlight.count else { return }
        timerArmed = true
        let wait = max(1, Int(inFlight[inFlightHead].sentAt + Int64(settings.timeoutMillis) - Self.nowMillis()))
        loop.schedule(afterMilliseconds: wait) { [weak self] in
            guard let self else { return }
            timerArmed = false
            guard fd >= 0, inFlightHead < inFlight.count else { return }
            if Self.nowMillis() - inFlight[inFlightHead].sentAt >= Int64(settings.timeoutMillis) {
                fail(.unavailable("redis \(address): no reply within \(settings.timeoutMillis) ms"), backOff: true)
            } else {
                armTimer()
            }
        }
    }

    /// Closes the socket, fails what is in flight, and (with `backOff`) refuses commands for a while.
    private func fail(_ error: StoreError, backOff: Bool) {
        if fd >= 0 {
            loop.unwatch(fd)
            Glibc.close(fd)
            fd = -1
        }
        reader = nil
        output.removeAll()
        outputOffset = 0
        writing = false
        if backOff {
            let now = Self.nowMillis()
            state = .backingOff(since: now, until: now + backoffMillis)
            backoffMillis = min(backoffMillis * 2, 1_000)
        } else {
            state = .idle
        }
        let failed = inFlight[inFlightHead...]
        inFlight = []
        inFlightHead = 0
        let batch = waitBatch
        waitBatch = nil
        for entry in failed { entry.handler?(.failure(error)) }
        for (_, handler) in batch?.held ?? [] { handler(.failure(error)) }
        onFailure?(error)
    }

    static func nowMillis() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000 + Int64(time.tv_nsec) / 1_000_000
    }
}
