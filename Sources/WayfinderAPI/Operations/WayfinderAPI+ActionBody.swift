import WayfinderCore

/// The body of a mutation's answer: the new state's rendering and the transitions that led there.
extension WayfinderAPI {
    /// `{"state": …, "transitions": […]}`, with the state's rendering and render memo (not
    /// remembered: the revision may not be stored). For a client that does not render
    /// everything, the state is rendered for it with a memo of its own, and neither is returned.
    func actionBody(
        _ outcome: Outcome, memo: RenderMemo, for client: ClientComponents? = nil
    ) -> (body: [UInt8], rendered: [UInt8]?, memo: RenderMemo?) {
        if let client {
            return (actionBody(render(outcome.state, for: client), outcome.transitions), nil, nil)
        }
        var memo = memo
        let rendered = engine.renderJSON(outcome.state, memo: &memo)
        return (actionBody(rendered, outcome.transitions), rendered, memo)
    }

    /// `{"state": rendered, "transitions": […]}`.
    private func actionBody(_ rendered: [UInt8], _ transitions: [Transition]) -> [UInt8] {
        var w = JSONWriter(capacity: 256)
        w.beginObject()
        w.key("transitions"); w.beginArray(); for transition in transitions { transition.write(to: &w) }; w.endArray()
        w.endObject()
        let prefix = #"{"state":"#.utf8
        var bytes: [UInt8] = []
        bytes.reserveCapacity(prefix.count + rendered.count + w.bytes.count)  // one buffer, no regrowth
        bytes.append(contentsOf: prefix)
        bytes.append(contentsOf: rendered)
        bytes.append(UInt8(ascii: ","))
        bytes.append(contentsOf: w.bytes.dropFirst())
        return bytes
    }
}
