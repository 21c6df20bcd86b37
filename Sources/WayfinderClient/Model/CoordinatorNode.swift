/// A coordinator and its children: the server's coordinator tree, for display and debugging.
public struct CoordinatorNode: Codable, Sendable, Hashable, Identifiable {
    /// Unique within the session (`c3`).
    public var id: String
    /// The flow's name in the catalog (`auth`).
    public var flow: String
    /// The child coordinators, in the order they started.
    public var children: [CoordinatorNode]

    /// A coordinator as the server would send it.
    public init(id: String, flow: String, children: [CoordinatorNode] = []) {
        self.id = id
        self.flow = flow
        self.children = children
    }

    /// The coordinator with this id in the tree, if any.
    public func find(_ id: String) -> CoordinatorNode? {
        if self.id == id { return self }
        for child in children {
            if let found = child.find(id) { return found }
        }
        return nil
    }
}
