import Glibc
import Synchronization

/// One epoll loop on its own thread: accepts on its SO_REUSEPORT listener and owns every
/// connection it accepted until that connection closes.
///
/// - Important: `@unchecked Sendable` because everything except `context` and `mailbox` is
///   touched only by the loop thread once `run()` starts; other threads use only `mailbox`. Its
///   mutable properties skip the run-time exclusivity checks for the reason given on
///   ``Connection``.
final class EventLoop: @unchecked Sendable {
    static let listenerTag: UInt64 = .max
    static let wakeTag: UInt64 = .max - 1
    /// Unsent bytes past which a connection stops answering pipelined requests and stops reading.
    static let pipelineHighWater = 256 * 1024
    /// Bytes buffered behind an open event stream past which reading pauses.
    static let streamInputLimit = 64 * 1024

    let context: ServerContext
    let mailbox: LoopMailbox
    let epoll: Epoll
    @exclusivity(unchecked) var listenFD: Int32
    @exclusivity(unchecked) var connections: [Int32: Connection] = [:]
    @exclusivity(unchecked) var streams: [UInt64: Connection] = [:]
    /// Connections whose answer is given later, by responder id.
    @exclusivity(unchecked) var awaiting: [UInt64: Connection] = [:]
    let readBuffer: UnsafeMutableRawBufferPointer
    @exclusivity(unchecked) var now: UInt64 = 0
    @exclusivity(unchecked) var nextCheck: UInt64 = .max
    @exclusivity(unchecked) var dateSecond = -1
    @exclusivity(unchecked) var dateBytes: [UInt8] = []
    @exclusivity(unchecked) var shutdownStarted = false
    @exclusivity(unchecked) var shutdownDeadline: UInt64 = .max
    @exclusivity(unchecked) var listenerPausedUntil: UInt64 = 0
    @exclusivity(unchecked) var nextConnectionID: UInt64 = 0
    /// The loop as its handler sees it: descriptors of its own, timers, the end of the round.
    let handle: HTTPEventLoop
    let limits: HTTPParserLimits
    let headerTimeout, bodyTimeout, idleTimeout, lingerTimeout: UInt64
    /// Nanoseconds one received body byte adds to the body's deadline (1 s / minimum rate).
    let nanosecondsPerBodyByte: UInt64

    /// Takes ownership of `listenFD`.
    init(context: ServerContext, listenFD: Int32) throws(SystemError) {
        self.context = context
        self.listenFD = listenFD
        let config = context.configuration
        limits = config.parserLimits
        headerTimeout = config.headerTimeout.nanoseconds
        bodyTimeout = config.bodyTimeout.nanoseconds
        idleTimeout = config.idleTimeout.nanoseconds
        lingerTimeout = config.lingerTimeout.nanoseconds
        nanosecondsPerBodyByte = 1_000_000_000 / UInt64(max(1, config.minBodyBytesPerSecond))
        epoll = try Epoll()
        do throws(SystemError) {
            mailbox = try LoopMailbox()
        } catch {
            epoll.close()
            throw error
        }
        readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        handle = HTTPEventLoop(epoll: epoll)
        do throws(SystemError) {
            try epoll.add(listenFD, .input, data: Self.listenerTag)
            try epoll.add(mailbox.eventFD, .input, data: Self.wakeTag)
        } catch {
            _ = mailbox.close()
            epoll.close()
            readBuffer.deallocate()
            throw error
        }
    }

    /// The loop; returns after shutdown, once every connection is closed or the deadline passed.
    func run() {
        now = monotonicNanoseconds()
        mailbox.bindToCurrentThread()
        while true {
            let wakeAt = min(nextCheck, handle.nextTimer)
            let timeout: Int32
            if wakeAt == .max {
                timeout = -1
            } else if wakeAt <= now {
                timeout = 0
            } else {
                timeout = Int32(min((wakeAt - now + 999_999) / 1_000_000, 60_000))
            }
            let count: Int
            do {
                count = try epoll.wait(timeoutMilliseconds: timeout)
            } catch {
                break  // epoll_wait only fails on programming errors (EBADF, EINVAL)
            }
            now = monotonicNanoseconds()
            updateDate()
            for i in 0..<count {
                let (data, events) = epoll.event(i)
                if data == Self.listenerTag {
                    acceptConnections()
                } else if data == Self.wakeTag {
                    handleWake()
                } else if data >> 32 == HTTPEventLoop.watcherMark {
                    handle.handleEvent(data, events)
                } else if let c = connections[Int32(truncatingIfNeeded: data)], c.id == data >> 32 {
                    handle(c, events)
                }
            }
            handle.runTimers(now: now)
            finishRound()
            if now >= nextCheck { checkTimers() }
            if shutdownStarted && (connections.isEmpty || now >= shutdownDeadline) { break }
        }
        teardown()
    }

    func updateDate() {
        let t = time(nil)
        if t != dateSecond {
            dateSecond = t
            dateBytes = Array(HTTPDate.format(t).utf8)
        }
    }

    func tag(_ c: Connection) -> UInt64 { c.id << 32 | UInt64(UInt32(bitPattern: c.fd)) }

    func setDeadline(_ c: Connection, _ deadline: UInt64) {
        c.deadline = deadline
        if deadline < nextCheck { nextCheck = deadline }
    }

    // MARK: Accepting

    func acceptConnections() {
        guard listenFD >= 0 else { return }
        for _ in 0..<32 {
            let accepted: (fd: Int32, address: String)?
            do {
                accepted = try Socket.accept(listenFD)
            } catch {
                if error.errno == ECONNABORTED || error.errno == EPROTO || error.errno == EPERM { continue }
                // EMFILE, ENFILE, ENOBUFS, ENOMEM: stop polling the listener briefly instead of spinning.
                try? epoll.modify(listenFD, [], data: Self.listenerTag)
                listenerPausedUntil = now + 100_000_000
                if listenerPausedUntil < nextCheck { nextCheck = listenerPausedUntil }
                return
            }
            guard let accepted else { return }
            let open = context.openConnections.add(1, ordering: .relaxed).newValue
            let place: ConnectionShares.Place =
                open > context.configuration.maxConnections
                ? .refused : context.shares?.take(peer: accepted.address, open: open, trusted: context.configuration.trustedProxies) ?? .uncounted
            guard place != .refused else {
                context.openConnections.subtract(1, ordering: .relaxed)
                closeDescriptor(accepted.fd)
                continue
            }
            try? Socket.setOption(accepted.fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
            nextConnectionID += 1
            let c = Connection(
                fd: accepted.fd, id: nextConnectionID & 0x7FFF_FFFF, remoteAddress: accepted.address,
                limits: limits, interest: [.input, .readHangup], deadline: now + headerTimeout)
            if case .held(let share) = place { c.share = share }
            do {
                try epoll.add(c.fd, c.interest, data: tag(c))
            } catch {
                if let share = c.share { context.shares?.release(share) }
                context.openConnections.subtract(1, ordering: .relaxed)
                closeDescriptor(accepted.fd)
                continue
            }
            connections[c.fd] = c
            setDeadline(c, c.deadline)
        }
    }

    // MARK: Events

    func handle(_ c: Connection, _ events: EpollEvents) {
        if !events.isDisjoint(with: [.input, .hangup, .error, .readHangup]) {
            if c.interest.contains(.input) {
                onReadable(c)
            } else if !events.isDisjoint(with: [.hangup, .error, .readHangup]) && (c.stream != nil || c.responder != nil) {
                close(c)  // an event stream whose reading is paused: the peer went away
            } else if events.contains(.hangup) || events.contains(.error) {
                close(c)
            }
        }
        if !c.isClosed && events.contains(.output) {
            if flush(c) { service(c) } else if !c.isClosed { updatePhase(c, progressed: false) }
        }
    }

    func onReadable(_ c: Connection) {
        var progressed = false
        for _ in 0..<4 {
            let n: Int?
            do {
                n = try Socket.read(c.fd, readBuffer)
            } catch {
                close(c)
                return
            }
            guard let n else { break }
            if n == 0 {
                // A client that leaves an event stream or a request answered later is gone (as a
                // proxy treats a client's close while it waits): nobody would read the answer.
                if c.isLingering || c.stream != nil || c.responder != nil {
                    close(c)
                    return
                }
                c.machine.peerDidClose()
                break
            }
            if c.isLingering {
                c.lingerBytes += n
                if c.lingerBytes > 1 << 20 {
                    close(c)
                    return
                }
                continue
            }
            c.machine.received(UnsafeRawBufferPointer(rebasing: readBuffer[0..<n]))
            c.bytesReceived += n
            progressed = true
            if n < readBuffer.count { break }
        }
        if c.isLingering { return }
        service(c, progressed: progressed)
    }

    /// Runs the state machine, answers what it asks for, flushes, and closes when it is done.
    func service(_ c: Connection, progressed: Bool = false) {
        while !c.isClosed {
            let hitHighWater = drive(c)
            guard flush(c) else { break }
            if c.machine.state == .closing && c.stream == nil && c.responder == nil {
                beginClose(c)
                return
            }
            if !hitHighWater { break }
        }
        if !c.isClosed {
            updateInterest(c)
            updatePhase(c, progressed: progressed)
        }
    }

    /// The end of a round: runs the handler's end-of-round blocks, then sends the answers given
    /// on this thread meanwhile; again while either made more work (an answer lets requests
    /// pipelined behind it be handled, which may start more).
    func finishRound() {
        while true {
            if handle.hasRoundEndWork {
                handle.runRoundEnd()
            } else if mailbox.hasWork {
                handleWake(readingEventFD: false)
            } else {
                return
            }
        }
    }

    /// Performs actions until the machine waits; returns true when it stopped at the output high-water mark.
    func drive(_ c: Connection) -> Bool {
        while true {
            if c.pendingOutput >= Self.pipelineHighWater { return true }
            let action = c.machine.nextAction()
            switch consume action {
            case .wait, .close:
                return false
            case .sendContinue:
                c.output.append(contentsOf: ResponseEncoder.continueResponse)
            case .handle(let request, let keepAlive):
                respond(c, request, keepAlive: keepAlive)
            case .sendError(let error):
                if error == .payloadTooLarge, let head = c.machine.parser.oversizedHead,
                    let answer = context.handler.answerWithoutBody(head, on: handle)
                {
                    deliver(c, answer, keepAlive: false, version: head.version, isHead: head.method == "HEAD")
                } else {
                    writeError(c, error)
                }
            }
        }
    }
}
