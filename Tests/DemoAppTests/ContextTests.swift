import DemoApp
import Testing
import WayfinderCore

@Suite struct ContextTests {
    @Test func defaultsAreFilledIn() throws {
        let d = try Driver()
        #expect(d.context == ["onboarded": false, "authenticated": false, "platform": "phone", "variant": "A", "user": nil])
        #expect(d.rendered.context == d.context)
    }

    @Test func nullCountsAsAbsentAndUnknownKeysAreDropped() throws {
        let d = try Driver(["onboarded": nil, "platform": nil, "variant": nil, "user": nil, "theme": "dark"])
        #expect(d.context == ["onboarded": false, "authenticated": false, "platform": "phone", "variant": "A", "user": nil])
    }

    @Test func theUserIsNullWhenNotAuthenticated() throws {
        let d = try Driver(["onboarded": true, "user": "a@b.c"])
        #expect(d.context["user"] == .null)
        #expect(d.stack == ["login"])
    }

    @Test func aSignedInContextKeepsItsUser() throws {
        let d = try Driver(["onboarded": true, "authenticated": true, "user": "a@b.c", "platform": "web", "variant": "B"])
        #expect(d.context == ["onboarded": true, "authenticated": true, "platform": "web", "variant": "B", "user": "a@b.c"])
        #expect(d.stack == ["dashboard"])
    }

    @Test func anInvalidPlatformIsInvalidParamsNamingContextPlatform() {
        #expect(throws: NavigationError.invalidParam("context.platform", "must be one of phone, tablet, web")) {
            try demoEngine.start(session: "x", context: ["platform": "watch"])
        }
        #expect(throws: NavigationError.invalidParam("context.platform", "must be one of phone, tablet, web")) {
            try demoEngine.start(session: "x", context: ["platform": 1])
        }
    }

    @Test func everyBadKeyIsListedInOrder() {
        #expect(throws: NavigationError.invalidParams([
            // Worded as a route param's are: what it must be, and what it is.
            InvalidParam(name: "context.onboarded", reason: "must be a boolean, not a string"),
            InvalidParam(name: "context.authenticated", reason: "must be a boolean, not an integer"),
            InvalidParam(name: "context.variant", reason: "must be one of A, B"),
            InvalidParam(name: "context.user", reason: "must be a string, not an integer"),
        ])) {
            try demoEngine.start(
                session: "x", context: ["onboarded": "yes", "authenticated": 1, "variant": "C", "user": 5])
        }
    }

    @Test func theLaunchFollowsTheContext() throws {
        #expect(try Driver().tree == "app(onboarding)")
        #expect(try Driver(["authenticated": true]).tree == "app(onboarding)")
        #expect(try Driver(["onboarded": true]).tree == "app(auth)")
        #expect(try Driver(["onboarded": true, "authenticated": true]).tree == "app(main(home,todos,profile))")
    }
}
