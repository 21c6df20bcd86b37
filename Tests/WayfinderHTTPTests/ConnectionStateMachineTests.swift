import Testing
@testable import WayfinderHTTP

/// The connection's decisions without any socket.
@Suite struct ConnectionStateMachineTests {
    func feed(_ m: inout ConnectionStateMachine, _ text: String) {
        Array(text.utf8).withUnsafeBytes { m.received($0) }
    }

    @Test func requestsThenWaitThenCloseAfterConnectionClose() {
        var m = ConnectionStateMachine(limits: HTTPParserLimits())
        feed(&m, "GET /a HTTP/1.1\r\nHost: h\r\n\r\nGET /b HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
        guard case .handle(let a, true) = m.nextAction() else { Issue.record("first"); return }
        #expect(a.path == "/a")
        guard case .handle(let b, false) = m.nextAction() else { Issue.record("second"); return }
        #expect(b.path == "/b")
        #expect(m.nextAction() == .close)
    }

    @Test func peerCloseWithAPartialRequestClosesWithoutHandling() {
        var m = ConnectionStateMachine(limits: HTTPParserLimits())
        feed(&m, "GET /a HTTP/1.1\r\nHo")
        #expect(m.nextAction() == .wait)
        m.peerDidClose()
        #expect(m.nextAction() == .close)
    }

    @Test func parseErrorsBecomeSendErrorThenClose() {
        var m = ConnectionStateMachine(limits: HTTPParserLimits())
        feed(&m, "GET / HTTP/2.0\r\nHost: h\r\n\r\n")
        #expect(m.nextAction() == .sendError(.versionNotSupported))
        #expect(m.nextAction() == .close)
    }

    @Test func drainingAnswersTheCurrentRequestWithClose() {
        var m = ConnectionStateMachine(limits: HTTPParserLimits())
        feed(&m, "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\na")
        #expect(m.nextAction() == .wait)
        m.drain()
        #expect(m.nextAction() == .wait)
        feed(&m, "b")
        guard case .handle(_, false) = m.nextAction() else { Issue.record("expected a final request"); return }
        #expect(m.nextAction() == .close)
    }

    @Test func streamingHoldsPipelinedRequestsUntilTheStreamEnds() {
        var m = ConnectionStateMachine(limits: HTTPParserLimits())
        feed(&m, "GET /events HTTP/1.1\r\nHost: h\r\n\r\nGET /next HTTP/1.1\r\nHost: h\r\n\r\n")
        guard case .handle = m.nextAction() else { Issue.record("first"); return }
        m.streamStarted(keepAliveAfter: true)
        #expect(m.nextAction() == .wait)
        m.streamEnded(clean: true)
        guard case .handle(let next, true) = m.nextAction() else { Issue.record("second"); return }
        #expect(next.path == "/next")
    }

    @Test func timeoutAnswers408OnlyWhenARequestHasStarted() {
        var idle = ConnectionStateMachine(limits: HTTPParserLimits())
        #expect(idle.timedOut() == .close)
        var partial = ConnectionStateMachine(limits: HTTPParserLimits())
        feed(&partial, "GET / HT")
        #expect(partial.timedOut() == .sendError(.requestTimeout))
    }
}
