import DemoApp
import Testing
import WayfinderCore

/// Deep links in a signed-in session: each produces exactly the stack it describes.
@Suite struct DeepLinkTests {
    // MARK: From home, nothing else open

    @Test func todosSelectsTheTodosTab() throws {
        var d = try Driver.signedIn()
        try d.link("wayfinder://todos")
        #expect(d.lastTransitions == [t(.selectTab, [Main.todoList], tab: "todos")])
        #expect(d.ids == [Main.todoList])
    }

    @Test func todoIdSelectsTheTabAndPushesTheDetail() throws {
        var d = try Driver.signedIn()
        try d.link("wayfinder://todos/5")
        #expect(d.lastTransitions == [t(.selectTab, [Main.todoList], tab: "todos"), t(.push, ["s4"])])
        #expect(d.stack == ["todoList", "todoDetail"])
        #expect(d.top.title == "Water the plants")
    }

    @Test func todosNewPresentsTheAddForm() throws {
        var d = try Driver.signedIn(platform: "web")
        try d.link("wayfinder://todos/new")
        #expect(d.lastTransitions == [t(.selectTab, [Main.todoList], tab: "todos"), t(.present, ["s4"])])
        #expect(d.stack == ["todoList", "todoAdd"])
        #expect(d.top.presentation == .sheet)
    }

    @Test func profileSelectsTheProfileTab() throws {
        var d = try Driver.signedIn()
        try d.link("wayfinder://profile")
        #expect(d.lastTransitions == [t(.selectTab, [Main.profile], tab: "profile")])
        #expect(d.ids == [Main.profile])
    }

    @Test func profilePasswordPushesChangePassword() throws {
        var d = try Driver.signedIn()
        try d.link("wayfinder://profile/password")
        #expect(d.lastTransitions == [t(.selectTab, [Main.profile], tab: "profile"), t(.push, ["s4"])])
        #expect(d.stack == ["profile", "changePassword"])
        #expect(d.tree == "app(main(home,todos,profile(changePassword)))")
    }

    @Test func signupWhileSignedInIsANoOp() throws {
        var d = try Driver.signedIn()
        try d.expectNoOp(.openDeepLink("wayfinder://signup"))
        try d.route("openTodo", ["id": "1"])
        try d.expectNoOp(.openDeepLink("wayfinder://signup"))
    }

    @Test func signupWhileSignedOutPushesRegister() throws {
        var d = try Driver(["onboarded": true])
        try d.link("wayfinder://signup")
        #expect(d.lastTransitions == [t(.push, ["s2"])])
        #expect(d.stack == ["login", "register"])
        // From forgot password: its flow is popped and removed first.
        d = try Driver(["onboarded": true])
        try d.route("forgotPassword")
        try d.link("wayfinder://signup")
        #expect(d.lastTransitions == [t(.pop, ["s2"]), t(.push, ["s3"])])
        #expect(d.stack == ["login", "register"])
        #expect(d.tree == "app(auth)")
    }

    // MARK: With a modal up

    /// Regression: the todos coordinator also owns the add form's modal, and the link reset that
    /// modal's (dismissed) stack instead of the todos tab, so the detail was never pushed.
    @Test func todoIdWhileTheAddFormIsUpDismissesThenPushes() throws {
        var d = try Driver.signedIn()
        try d.tab("todos")
        try d.route("addTodo")
        try d.link("wayfinder://todos/2")
        #expect(d.lastTransitions == [t(.dismiss, ["s4"]), t(.push, ["s5"])])
        #expect(d.stack == ["todoList", "todoDetail"])
        #expect(d.state.navigation.modals.isEmpty)
    }

    @Test func todosWhileTheAddFormIsUpDismissesIt() throws {
        var d = try Driver.signedIn()
        try d.tab("todos")
        try d.route("addTodo")
        try d.link("wayfinder://todos")
        #expect(d.lastTransitions == [t(.dismiss, ["s4"])])
        #expect(d.ids == [Main.todoList])
    }

    @Test func todosNewWhileTheAddFormIsUpRebuildsAFreshForm() throws {
        var d = try Driver.signedIn()
        try d.tab("todos")
        try d.route("addTodo")
        try d.route("saveTodo", ["title": "", "description": "typed"])
        try d.link("wayfinder://todos/new")
        #expect(d.lastTransitions == [t(.dismiss, ["s4"]), t(.present, ["s5"])])
        #expect(d.notices == [])
        #expect(d.field("description") == "")
    }

    @Test func profileWhileTheAddFormIsUpDismissesThenSelects() throws {
        var d = try Driver.signedIn()
        try d.tab("todos")
        try d.route("addTodo")
        try d.link("wayfinder://profile")
        #expect(d.lastTransitions == [t(.dismiss, ["s4"]), t(.selectTab, [Main.profile], tab: "profile")])
        #expect(d.ids == [Main.profile])
    }

    @Test func transitionsComeInOrderDismissSelectTabPopPush() throws {
        var d = try Driver.signedIn()
        try d.tab("profile")
        try d.route("changePassword")  // s4, coordinator c5
        try d.tab("todos")
        try d.route("addTodo")  // s5
        try d.link("wayfinder://profile/password")
        #expect(d.lastTransitions == [
            t(.dismiss, ["s5"]), t(.selectTab, ["s4"], tab: "profile"), t(.pop, ["s4"]), t(.push, ["s6"]),
        ])
        #expect(d.stack == ["profile", "changePassword"])
        #expect(d.tree == "app(main(home,todos,profile(changePassword)))")
        #expect(d.top.coordinator == "c6")
    }

    // MARK: With another tab selected

    @Test func todoIdFromAnotherTabResetsTheTodosStack() throws {
        var d = try Driver.signedIn()
        try d.tab("todos")
        try d.route("showTodo", ["id": "1"])  // s4
        try d.tab("profile")
        try d.link("wayfinder://todos/2")
        #expect(d.lastTransitions == [t(.selectTab, ["s4"], tab: "todos"), t(.pop, ["s4"]), t(.push, ["s5"])])
        #expect(d.stack == ["todoList", "todoDetail"])
        #expect(d.top.title == "Call the plumber")
    }

    @Test func todosFromAnotherTabPopsWhatWasHiddenThere() throws {
        var d = try Driver.signedIn()
        try d.route("openTodo", ["id": "1"])  // s4
        try d.tab("home")
        try d.link("wayfinder://todos")
        #expect(d.lastTransitions == [t(.selectTab, ["s4"], tab: "todos"), t(.pop, ["s4"])])
        #expect(d.ids == [Main.todoList])
    }

    @Test func profileFromAnotherTabRemovesAHiddenChangePassword() throws {
        var d = try Driver.signedIn()
        try d.tab("profile")
        try d.route("changePassword")  // s4
        try d.tab("home")
        try d.link("wayfinder://profile")
        #expect(d.lastTransitions == [t(.selectTab, ["s4"], tab: "profile"), t(.pop, ["s4"])])
        #expect(d.ids == [Main.profile])
        #expect(d.tree == "app(main(home,todos,profile))")
    }

    @Test func aLinkLeavesOtherTabsAlone() throws {
        var d = try Driver.signedIn()
        try d.tab("profile")
        try d.route("changePassword")
        try d.link("wayfinder://todos/1")
        #expect(d.tabStack("profile") == ["profile", "changePassword"])
        #expect(d.tree == "app(main(home,todos,profile(changePassword)))")
    }

    // MARK: Rebuilds and no-ops

    @Test func reopeningTheSameTodoRebuildsItWithFreshIds() throws {
        var d = try Driver.signedIn()
        try d.link("wayfinder://todos/2")  // s4
        try d.route("updateTodo", ["title": ""])  // a notice on s4
        try d.link("wayfinder://todos/2")
        #expect(d.lastTransitions == [t(.pop, ["s4"]), t(.push, ["s5"])])
        #expect(d.ids == [Main.todoList, "s5"])
        #expect(d.notices == [])
        #expect(d.field("title") == "Call the plumber")
        #expect(d.state.revision == 4)
    }

    @Test func aLinkWhoseStackIsAlreadyOnScreenIsANoOp() throws {
        var d = try Driver.signedIn()
        try d.tab("todos")
        try d.expectNoOp(.openDeepLink("wayfinder://todos"))
        try d.tab("profile")
        try d.expectNoOp(.openDeepLink("wayfinder://profile"))
    }

    @Test func profilePasswordRebuildsAnOpenChangePassword() throws {
        var d = try Driver.signedIn()
        try d.link("wayfinder://profile/password")  // s4, c5
        try d.link("wayfinder://profile/password")
        #expect(d.lastTransitions == [t(.pop, ["s4"]), t(.push, ["s5"])])
        #expect(d.state.coordinators.find("c5") == nil)
        #expect(d.tree == "app(main(home,todos,profile(changePassword)))")
    }

    // MARK: At session start

    @Test func aLinkAtSessionStartOpensAtRevisionOne() throws {
        let d = try Driver(["onboarded": true, "authenticated": true, "user": "a@b.c"], link: "wayfinder://todos/3")
        #expect(d.stack == ["todoList", "todoDetail"])
        #expect(d.state.revision == 1)
        #expect(d.state.pendingDeepLink == nil)
    }
}
