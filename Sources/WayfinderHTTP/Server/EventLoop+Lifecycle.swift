/// Output, interest, deadlines, closing and shutdown.
extension EventLoop {
    /// Writes pending output; true when all of it went out and the connection is still open.
    func flush(_ c: Connection) -> Bool {
        while c.outputOffset < c.output.count {
            let result: Result<Int?, SystemError> = c.output.withUnsafeBytes { all in
                let rest = UnsafeRawBufferPointer(rebasing: all[c.outputOffset...])
                return Result { () throws(SystemError) -> Int? in try Socket.write(c.fd, rest) }
            }
            switch result {
            case .failure:
                close(c)
                return false
            case .success(nil):
                updateInterest(c)
                return false
            case .success(let n?):
                c.outputOffset += n
                if c.phase == .write { c.deadline = now + bodyTimeout }
            }
        }
        if c.output.capacity > 1 << 20 {
            c.output = []
        } else {
            c.output.removeAll(keepingCapacity: true)
        }
        c.outputOffset = 0
        return true
    }

    func updateInterest(_ c: Connection) {
        var want: EpollEvents = []
        if c.isLingering {
            want = [.input, .readHangup]
        } else if !c.machine.peerClosed {
            if c.stream != nil || c.responder != nil {
                want = c.machine.parser.bufferedByteCount > Self.streamInputLimit ? [.readHangup] : [.input, .readHangup]
            } else if c.machine.state == .closing || c.pendingOutput < Self.pipelineHighWater {
                want = [.input, .readHangup]
            }
        }
        if c.pendingOutput > 0 { want.insert(.output) }
        if want != c.interest {
            do {
                try epoll.modify(c.fd, want, data: tag(c))
                c.interest = want
            } catch {
                close(c)
            }
        }
    }

    /// Picks the deadline that applies now (see `Connection.Phase`).
    func updatePhase(_ c: Connection, progressed: Bool) {
        if c.isLingering || c.isClosed { return }
        let phase: Connection.Phase
        if c.pendingOutput > 0 {
            phase = .write
        } else if c.stream != nil || c.responder != nil {
            phase = .streaming
        } else if c.machine.parser.isReadingBody {
            phase = .body
        } else if c.machine.parser.hasPartialRequest || c.machine.requestsHandled == 0 {
            phase = .header
        } else {
            phase = .idle
        }
        if phase != c.phase {
            c.phase = phase
            switch phase {
            case .header: setDeadline(c, now + headerTimeout)
            case .body:
                c.bodyStarted = now
                c.bodyStartBytes = c.bytesReceived
                setDeadline(c, now + bodyTimeout)
            case .write: setDeadline(c, now + bodyTimeout)
            case .idle: setDeadline(c, now + idleTimeout)
            case .streaming: c.deadline = .max
            case .linger: setDeadline(c, now + lingerTimeout)
            }
        } else if phase == .body && progressed {
            // Later than before: the loop's next check comes no later than this deadline.
            let received = UInt64(c.bytesReceived - c.bodyStartBytes)
            c.deadline = c.bodyStarted + bodyTimeout + received.multipliedReportingOverflow(by: nanosecondsPerBodyByte).partialValue
        }
    }

    /// All output is flushed and no more requests will be answered: close, draining input briefly
    /// first (shutdown(SHUT_WR) then read until EOF) so the peer is not reset before it reads.
    func beginClose(_ c: Connection) {
        if c.machine.peerClosed || shutdownStarted {
            close(c)
            return
        }
        Socket.shutdownWrite(c.fd)
        c.isLingering = true
        c.phase = .linger
        setDeadline(c, now + lingerTimeout)
        updateInterest(c)
    }

    /// Closes the descriptor (exactly once) and ends the connection's stream.
    func close(_ c: Connection) {
        if c.isClosed { return }
        c.isClosed = true
        closeDescriptor(c.fd)
        connections[c.fd] = nil
        context.openConnections.subtract(1, ordering: .relaxed)
        if let share = c.share { context.shares?.release(share) }
        if let writer = c.stream {
            c.stream = nil
            streams[writer.id] = nil
            writer.finish()
        }
        if let responder = c.responder {
            c.responder = nil
            awaiting[responder.id] = nil
            responder.cancel()
        }
    }

    func checkTimers() {
        var next = UInt64.max
        var expired: [Connection] = []
        for c in connections.values {
            if c.deadline <= now {
                expired.append(c)
            } else if c.deadline < next {
                next = c.deadline
            }
        }
        if listenerPausedUntil != 0 {
            if now >= listenerPausedUntil, listenFD >= 0 {
                listenerPausedUntil = 0
                try? epoll.modify(listenFD, .input, data: Self.listenerTag)
            } else if listenerPausedUntil < next {
                next = listenerPausedUntil
            }
        }
        if shutdownStarted && shutdownDeadline < next { next = shutdownDeadline }
        // Deadlines are checked with 5 ms granularity so that many connections with staggered
        // deadlines cannot make the loop scan them all on every millisecond.
        nextCheck = next == .max ? .max : max(next, now + 5_000_000)
        for c in expired { expire(c) }
    }

    func expire(_ c: Connection) {
        switch c.phase {
        case .header, .body, .idle:
            if case .sendError(let error) = c.machine.timedOut() {
                writeError(c, error)
                _ = flush(c)
            }
            close(c)
        case .write, .linger, .streaming:
            close(c)
        }
    }

    /// Stop accepting, end streams, close idle connections; the rest close after their response.
    func startShutdown() {
        shutdownStarted = true
        shutdownDeadline = context.shutdownDeadline.load(ordering: .acquiring)
        if shutdownDeadline < nextCheck { nextCheck = shutdownDeadline }
        if listenFD >= 0 {
            try? epoll.remove(listenFD)
            closeDescriptor(listenFD)
            listenFD = -1
        }
        for c in Array(connections.values) {
            c.machine.drain()
            if c.isLingering {
                close(c)
            } else if c.stream != nil {
                endStream(c, clean: true)
                service(c)
            } else if c.pendingOutput == 0 && !c.machine.parser.hasPartialRequest && c.responder == nil {
                close(c)
            }
        }
    }

    func teardown() {
        for c in Array(connections.values) { close(c) }
        if listenFD >= 0 {
            closeDescriptor(listenFD)
            listenFD = -1
        }
        handle.stop()
        for writer in mailbox.close() { writer.finish() }
        for c in awaiting.values { c.responder?.cancel() }
        awaiting = [:]
        epoll.close()
        readBuffer.deallocate()
    }
}
