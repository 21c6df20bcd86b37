import WayfinderCore

/// The body of a mutation's answer: the new state's rendering and the transitions that led there.
extension WayfinderAPI {
    /// `{"state": …, "transitions": […]}`, with the state's rendering and render memo (not
    /// remembered: the revision may not be stored). For a client that does not render
    /// everything, the state is rendered for it with a memo of its own, and neither is returned.
    /// `transitions`: `outcome`'s transitions as ``JournalRecord/transitionsJSON(_:)`` writes them.
    /// The rendering returned is shape 1 (what the cache holds), whatever `shape` the body has.
    func actionBody(
        _ outcome: Outcome, transitions: [UInt8], memo: RenderMemo, for client: ClientComponents? = nil, shape: StateShape = .full
    ) -> (body: [UInt8], rendered: [UInt8]?, memo: RenderMemo?) {
        if let client {
            return (actionBody(render(outcome.state, for: client, shape: shape), transitions), nil, nil)
        }
        var memo = memo
        let rendered = engine.renderJSON(outcome.state, memo: &memo)
        let body = shape == .full ? rendered : reshaped(outcome.state, memo: memo, shape)
        return (actionBody(body, transitions), rendered, memo)
    }

    /// `{"state": rendered, "transitions": transitions}` (`transitions`: the JSON array of
    /// ``JournalRecord/transitionsJSON(_:)``).
    private func actionBody(_ rendered: [UInt8], _ transitions: [UInt8]) -> [UInt8] {
        let prefix = #"{"state":"#.utf8, member = #","transitions":"#.utf8
        var bytes: [UInt8] = []
        bytes.reserveCapacity(prefix.count + rendered.count + member.count + transitions.count + 1)  // one buffer, no regrowth
        bytes.append(contentsOf: prefix)
        bytes.append(contentsOf: rendered)
        bytes.append(contentsOf: member)
        bytes.append(contentsOf: transitions)
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }
}
