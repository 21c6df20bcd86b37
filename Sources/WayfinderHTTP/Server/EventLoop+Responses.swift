/// Answering requests, errors and event streams.
extension EventLoop {
    func respond(_ c: Connection, _ request: HTTPRequest, keepAlive: Bool) {
        let isHead = request.method == "HEAD"
        let response: HTTPResponse
        do {
            response = try context.handler.handle(request)
        } catch {
            writeResponse(c, context.errorResponse(.internalError), status: 500, keepAlive: keepAlive, version: request.version, isHead: isHead)
            return
        }
        switch response.body {
        case .bytes:
            writeResponse(c, response, status: response.status, keepAlive: keepAlive, version: request.version, isHead: isHead)
        case .later(let start):
            let responder = HTTPResponder(id: context.nextStreamID.add(1, ordering: .relaxed).oldValue, mailbox: mailbox)
            c.responder = responder
            c.awaited = (keepAlive, request.version, isHead)
            c.machine.awaitResponse()
            awaiting[responder.id] = c
            start(responder)
        case .stream(let start):
            if isHead || ResponseEncoder.hasNoContent(response.status) {
                let keep = ResponseEncoder.writeHead(
                    into: &c.output, status: response.status, headers: response.headers,
                    framing: isHead && request.version == .http1_1 ? .chunked : .none,
                    keepAlive: keepAlive, requestVersion: request.version, date: dateBytes)
                if !keep { c.machine.closeAfterResponse() }
                return
            }
            let chunked = request.version == .http1_1
            let keep = ResponseEncoder.writeHead(
                into: &c.output, status: response.status, headers: response.headers,
                framing: chunked ? .chunked : .none, keepAlive: chunked && keepAlive,
                requestVersion: request.version, date: dateBytes)
            c.machine.streamStarted(keepAliveAfter: keep)
            let writer = HTTPStreamWriter(
                id: context.nextStreamID.add(1, ordering: .relaxed).oldValue, mailbox: mailbox,
                maxPendingBytes: context.configuration.maxStreamBufferBytes)
            c.stream = writer
            c.streamChunked = chunked
            streams[writer.id] = c
            start(writer)
            pumpStream(c)
        }
    }

    func writeResponse(_ c: Connection, _ response: HTTPResponse, status: Int, keepAlive: Bool, version: HTTPVersion, isHead: Bool) {
        let body: [UInt8]
        if case .bytes(let bytes) = response.body { body = bytes } else { body = [] }
        let framing: ResponseEncoder.Framing
        if ResponseEncoder.hasNoContent(status) {
            framing = .none
        } else if isHead, body.isEmpty, let declared = response.headers["Content-Length"], let n = Int(declared), n >= 0 {
            framing = .contentLength(n)
        } else {
            framing = .contentLength(body.count)
        }
        let keep = ResponseEncoder.writeHead(
            into: &c.output, status: status, headers: response.headers, framing: framing,
            keepAlive: keepAlive, requestVersion: version, date: dateBytes)
        if !keep { c.machine.closeAfterResponse() }
        if !isHead && !ResponseEncoder.hasNoContent(status) { c.output.append(contentsOf: body) }
    }

    func writeError(_ c: Connection, _ error: HTTPError) {
        var response = context.errorResponse(error)
        if case .bytes = response.body {} else { response = HTTPError.defaultResponse(error) }
        writeResponse(c, response, status: error.status, keepAlive: false, version: .http1_1, isHead: false)
    }

    /// Moves writes queued on the connection's stream writer into its output. A peer that does
    /// not read, with `maxStreamBufferBytes` unsent already, has its stream ended.
    func pumpStream(_ c: Connection) {
        guard let writer = c.stream else { return }
        let (writes, close) = writer.takePending()
        let limit = context.configuration.maxStreamBufferBytes
        for bytes in writes where !bytes.isEmpty {
            if c.pendingOutput > 0 && c.pendingOutput + bytes.count > limit {
                endStream(c, clean: false)
                return
            }
            if c.streamChunked {
                ResponseEncoder.appendChunk(bytes, to: &c.output)
            } else {
                c.output.append(contentsOf: bytes)
            }
        }
        if close { endStream(c, clean: true) }
    }

    /// Ends the stream: the terminating chunk when `clean`, then the writer's close callbacks.
    func endStream(_ c: Connection, clean: Bool) {
        guard let writer = c.stream else { return }
        c.stream = nil
        streams[writer.id] = nil
        if clean && c.streamChunked { c.output.append(contentsOf: ResponseEncoder.lastChunk) }
        c.machine.streamEnded(clean: clean && c.streamChunked)
        writer.finish()
    }

    /// Writes a later answer and lets the requests pipelined behind it go on.
    func answerLater(_ responder: HTTPResponder) {
        guard let c = awaiting.removeValue(forKey: responder.id), !c.isClosed, let response = responder.takeResponse() else { return }
        c.responder = nil
        let (keepAlive, version, isHead) = c.awaited
        if case .bytes = response.body {
            writeResponse(c, response, status: response.status, keepAlive: keepAlive, version: version, isHead: isHead)
        } else {
            writeResponse(c, context.errorResponse(.internalError), status: 500, keepAlive: keepAlive, version: version, isHead: isHead)
        }
        c.machine.responseGiven()
        service(c)
    }

    func handleWake() {
        let (writers, responders) = mailbox.drain()
        if !shutdownStarted && context.shuttingDown.load(ordering: .acquiring) { startShutdown() }
        for responder in responders { answerLater(responder) }
        for writer in writers {
            if let c = streams[writer.id] {
                pumpStream(c)
                service(c)
            } else {
                writer.finish()
            }
        }
    }
}
