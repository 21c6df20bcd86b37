/// The wire form of a state a client reads, as it says in `Wayfinder-Shape` (or `?shape=` on an
/// event stream).
///
/// - Important: ``full`` stays the default, byte for byte: a client that says nothing gets it.
public enum StateShape: Int, Sendable, Hashable, CaseIterable {
    /// Shape 1: `stack` holds the visible screens in full, as `navigation` does too.
    case full = 1
    /// Shape 2: `stack` holds the visible screens' ids, each naming a screen in `navigation`, so
    /// no screen is sent twice.
    case screenIDs = 2

    /// The shape for a client that says it reads `declared`: the newest shape this server has
    /// that is not newer than that (a client of a later shape gets ``screenIDs``); ``full`` for
    /// nil, or for anything that is not a whole number of 1 or more.
    public init(declared: String?) {
        guard let declared, let number = Int(declared), number >= 2 else {
            self = .full
            return
        }
        self = number >= StateShape.screenIDs.rawValue ? .screenIDs : .full
    }
}
