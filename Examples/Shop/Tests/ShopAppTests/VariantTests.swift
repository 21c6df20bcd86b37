@testable import ShopApp
import Testing
import WayfinderCore
import WayfinderTesting

/// The checkout's A/B test, read from the session's context: A asks to sign in first, B
/// ("guest first") asks for an email address first. Either door leads to the other.
@Suite struct VariantTests {
    @Test func variantBStartsTheCheckoutAsAGuestWithSignInOneTapAway() throws {
        var session = try shopSession(["platform": "web", "variant": "B"])
        try session.fillCart()
        try session.checkOut(openingOn: "guest")
        #expect(session.topScreen?.routes == ["continueWithEmail", "signInInstead"])
        try session.send(CheckoutFlow.Route.signInInstead) {
            $0.stack.append("signIn")
            $0.navigation = cartTab("guest", "signIn")
            $0.transitions = ["push signIn"]
        }
        // Back to the guest door: popped, not pushed again.
        try session.send(CheckoutFlow.Route.continueAsGuest) {
            $0.stack.removeLast()
            $0.navigation = cartTab("guest")
            $0.transitions = ["pop signIn"]
        }
    }

    @Test func variantAStartsWithSignInAndTheGuestDoorLeadsBackToIt() throws {
        var session = try shopSession()
        try session.fillCart()
        try session.checkOut(openingOn: "signIn")
        #expect(session.topScreen?.routes == ["signIn", "continueAsGuest"])
        try session.send(CheckoutFlow.Route.continueAsGuest) {
            $0.stack.append("guest")
            $0.navigation = cartTab("signIn", "guest")
            $0.transitions = ["push guest"]
        }
        try session.send(CheckoutFlow.Route.signInInstead) {
            $0.stack.removeLast()
            $0.navigation = cartTab("signIn")
            $0.transitions = ["pop guest"]
        }
    }

    @Test func aVariantTheTestDoesNotHaveIsRefusedWhenTheSessionStarts() throws {
        #expect(throws: NavigationError.invalidParam("context.variant", "must be one of A, B")) {
            try shopSession(["variant": "C"])
        }
    }
}
