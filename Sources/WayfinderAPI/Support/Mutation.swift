import WayfinderCore
import WayfinderHTTP
import WayfinderStore

/// A mutation in progress: what its turns share.
struct Mutation: Sendable {
    let id: String
    let cacheKey: SessionKey
    let body: RequestBody
    let makeAction: @Sendable (RequestBody) throws -> Action
    let idempotencyKey: String?
    let fingerprint: [UInt8]?
    let ifMatch: String?
    let context: RequestContext
    /// What the client renders (nil: everything).
    let client: ClientComponents?
    let loop: (any StoreLoop)?
    /// When the request arrived (unix ms): the action's ``FlowContext/now`` and its journal time.
    let time: Int64
    /// Effects the action asks for run on their own and the answer is `202` at once (a signal to
    /// every session of a user), instead of an answer that waits for them.
    var detachingEffects = false
    let reply: Reply
}
