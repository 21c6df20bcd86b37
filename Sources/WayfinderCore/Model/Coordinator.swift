/// Where a coordinator's first screen goes, decided by its parent when starting it.
public enum Placement: Sendable, Hashable, Codable {
    /// Replaces the whole window (the application coordinator's children).
    case root
    /// The root of a tab of the parent's tab bar.
    case tab(String)
    /// Pushed onto the stack that is on top.
    case push
    /// Presented as a new modal.
    case present(ModalStyle)
}

/// A node of the coordinator tree: a running flow, its children, and its view-model data.
public struct Coordinator: Sendable, Hashable, Codable {
    /// `c0` for the application coordinator, then `c1`, `c2`, … in the order they start; never
    /// reused within a session.
    public var id: String
    /// The name of the flow it runs (``Flow/name``).
    public var flow: String
    /// Where its first screen went.
    public var placement: Placement
    /// The coordinators it started that are still running, oldest first.
    public var children: [Coordinator]
    /// The flow's own view-model data (MVVM-C: the flow is the coordinator, this is its model).
    public var data: JSONValue

    /// A node; the engine makes them when flows start children.
    public init(id: String, flow: String, placement: Placement, children: [Coordinator] = [], data: JSONValue = .null) {
        self.id = id
        self.flow = flow
        self.placement = placement
        self.children = children
        self.data = data
    }

    /// The flow of the coordinator with this id in the subtree, if any. (Not generic, so callers
    /// outside this module get the specialised walk.)
    package func flow(of id: String) -> String? {
        lookup(id) { $0.flow }
    }

    /// Whether `other` has the same coordinators (by id) in the same places: most changes only
    /// move screens, and then no flow started or finished.
    package func sameCoordinators(as other: Coordinator) -> Bool {
        guard id == other.id, children.count == other.children.count else { return false }
        return children.withUnsafeBufferPointer { mine in
            other.children.withUnsafeBufferPointer { theirs in
                mine.indices.allSatisfy { mine[$0].sameCoordinators(as: theirs[$0]) }
            }
        }
    }

    /// What `read` gives of the node with this id, without copying the nodes on the way (nor
    /// the node itself, unless `read` returns it); nil if absent.
    package func lookup<T>(_ id: String, _ read: (Coordinator) -> T) -> T? {
        if self.id == id { return read(self) }
        return children.withUnsafeBufferPointer { Self.lookup(id, among: $0, read) }
    }

    /// The tree walks go through pointers to the nodes: calling a method on an array's element
    /// copied the element here (the profile showed a copy of every node visited, each a retain
    /// and a release of its five fields).
    private static func lookup<T>(_ id: String, among nodes: UnsafeBufferPointer<Coordinator>, _ read: (Coordinator) -> T) -> T? {
        guard let base = nodes.baseAddress else { return nil }
        for index in 0..<nodes.count {
            let node = base + index
            if node.pointee.id == id { return read(node.pointee) }
            if let found = node.pointee.children.withUnsafeBufferPointer({ lookup(id, among: $0, read) }) { return found }
        }
        return nil
    }

    /// The node with this id in the subtree, if any.
    public func find(_ id: String) -> Coordinator? {
        lookup(id) { $0 }
    }

    /// The ids from the root down to `id` (empty if absent).
    func path(to id: String) -> [String] {
        var path: [String] = []
        path.reserveCapacity(8)  // deeper trees grow it; most are 3 or 4 levels
        return collectPath(to: id, &path) ? path : []
    }

    private func collectPath(to id: String, _ path: inout [String]) -> Bool {
        path.append(self.id)
        if self.id == id { return true }
        if children.withUnsafeBufferPointer({ Self.collectPath(to: id, among: $0, &path) }) { return true }
        path.removeLast()
        return false
    }

    /// `collectPath` over nodes reached through a pointer (see `lookup(_:among:_:)`).
    private static func collectPath(to id: String, among nodes: UnsafeBufferPointer<Coordinator>, _ path: inout [String]) -> Bool {
        guard let base = nodes.baseAddress else { return false }
        for index in 0..<nodes.count {
            let node = base + index
            path.append(node.pointee.id)
            if node.pointee.id == id { return true }
            if node.pointee.children.withUnsafeBufferPointer({ collectPath(to: id, among: $0, &path) }) { return true }
            path.removeLast()
        }
        return false
    }

    /// Applies `change` to the node with this id; returns whether it was found.
    @discardableResult
    mutating func update(_ id: String, _ change: (inout Coordinator) -> Void) -> Bool {
        if self.id == id { change(&self); return true }
        for index in children.indices where children[index].update(id, change) { return true }
        return false
    }

    /// Removes the subtree rooted at `id`; returns it.
    mutating func remove(_ id: String) -> Coordinator? {
        if let index = children.firstIndex(where: { $0.id == id }) { return children.remove(at: index) }
        for index in children.indices { if let removed = children[index].remove(id) { return removed } }
        return nil
    }

    /// This node's id and all its descendants'.
    public var subtreeIDs: [String] { [id] + children.flatMap(\.subtreeIDs) }

    /// Nodes in post-order (children before parents): the order in which orphans are pruned.
    public var postOrder: [Coordinator] { children.flatMap(\.postOrder) + [self] }
}
