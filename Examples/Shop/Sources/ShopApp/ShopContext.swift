import WayfinderCore

/// Who the customer is and how the app looks. A client may send how the app looks when it creates
/// a session (the web client sends `platform` and, with `?variant=B`, `variant`); whether the
/// customer is signed in, and as whom, is the server's: the checkout's sign-in sets it, or the
/// session's verified identity.
struct ShopContext: SessionContext {
    enum Platform: String, Codable, CaseIterable { case phone, tablet, web }
    /// The checkout's A/B test.
    enum Variant: String, Codable, CaseIterable {
        /// The checkout asks to sign in first, with "continue as guest" beside it.
        case A
        /// "Guest first": the checkout asks for an email address, with "sign in" beside it.
        case B
    }

    var platform = Platform.phone
    var variant = Variant.A
    var signedIn = false
    /// The signed-in customer's email address.
    var email: String?

    static let clientMembers = ContextMembers.only(["platform", "variant"])

    /// No email address unless signed in; signed in needs one.
    func normalized() throws -> ShopContext {
        var context = self
        if !signedIn { context.email = nil }
        if signedIn, (email ?? "").isEmpty {
            throw NavigationError.invalidParam("context.email", "is required when signedIn is true")
        }
        return context
    }
}
