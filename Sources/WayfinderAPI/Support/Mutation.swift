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
    let reply: Reply
}
