import DemoApp
import Testing
import WayfinderCore

@Suite struct BackTests {
    @Test func backPopsTheTodoDetail() throws {
        var d = try Driver.signedIn()
        try d.route("openTodo", ["id": "4"])
        try d.back("s4")
        #expect(d.lastTransitions == [t(.pop, ["s4"])])
        #expect(d.ids == [Main.todoList])
        #expect(d.selectedTab == "todos")
    }

    @Test func backDismissesTheAddForm() throws {
        var d = try Driver.signedIn(platform: "tablet")
        try d.tab("todos")
        try d.route("addTodo")
        try d.back("s4")
        #expect(d.lastTransitions == [t(.dismiss, ["s4"])])
        #expect(d.ids == [Main.todoList])
        #expect(d.state.navigation.modals.isEmpty)
        #expect(d.tree == "app(main(home,todos,profile))")
    }

    @Test func backAtEveryRootIsNothingToPop() throws {
        var d = try Driver()
        d.expectRefused(.back(screen: nil), .nothingToPop)
        d = try Driver(["onboarded": true])
        d.expectRefused(.back(screen: "s1"), .nothingToPop)
        d = try Driver.signedIn()
        for tab in ["home", "todos", "profile"] {
            if d.selectedTab != tab { try d.tab(tab) }
            d.expectRefused(.back(screen: nil), .nothingToPop)
            d.expectRefused(.back(screen: d.topID), .nothingToPop)
        }
    }

    @Test func backNamingAnotherScreenIsStale() throws {
        var d = try Driver.signedIn()
        try d.tab("todos")
        try d.route("showTodo", ["id": "1"])
        d.expectRefused(.back(screen: Main.todoList), .staleScreen(requested: Main.todoList, top: "s4"))
        d.expectRefused(.back(screen: Main.dashboard), .staleScreen(requested: Main.dashboard, top: "s4"))
        d.expectRefused(.back(screen: "nonsense"), .staleScreen(requested: "nonsense", top: "s4"))
        try d.back("s4")
        // The double tap's second back.
        d.expectRefused(.back(screen: "s4"), .staleScreen(requested: "s4", top: Main.todoList))
    }

    @Test func staleIsCheckedBeforeNothingToPop() throws {
        var d = try Driver.signedIn()
        d.expectRefused(.back(screen: "s9"), .staleScreen(requested: "s9", top: Main.dashboard))
    }

    @Test func backInAHiddenTabIsNotPossible() throws {
        var d = try Driver.signedIn()
        try d.tab("todos")
        try d.route("showTodo", ["id": "1"])
        try d.tab("home")
        d.expectRefused(.back(screen: "s4"), .staleScreen(requested: "s4", top: Main.dashboard))
        #expect(d.tabStack("todos") == ["todoList", "todoDetail"])
    }
}
