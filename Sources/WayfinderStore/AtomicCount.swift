import Synchronization

extension Atomic where Value == Int {
    /// Adds one unless the value has reached `limit`; true if it added. For a session count
    /// checked against a cap by several threads at once without a lock.
    func increment(ifBelow limit: Int) -> Bool {
        var current = load(ordering: .relaxed)
        while current < limit {
            let (exchanged, original) = compareExchange(expected: current, desired: current + 1, ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
        return false
    }
}
