import DemoApp
import Testing
import WayfinderCore

@Suite struct CatalogTests {
    private func catalog() throws -> JSONValue {
        try JSONParser.parse(demoApplication.catalog.json)
    }

    private func flow(_ name: String) throws -> JSONValue {
        try #require(try catalog()["flows"]?.arrayValue?.first { $0["name"] == .string(name) })
    }

    @Test func listsEveryFlowRootFirst() throws {
        let names = try catalog()["flows"]?.arrayValue?.compactMap { $0["name"]?.stringValue }
        #expect(names == ["app", "onboarding", "auth", "changePassword", "main", "home", "todos", "profile"])
    }

    @Test func listsScreensAndChildrenByName() throws {
        #expect(try flow("app")["screens"] == [])
        #expect(try flow("app")["children"] == ["onboarding", "auth", "main"])
        #expect(try flow("auth")["screens"] == ["login", "register", "confirmSignUp", "unlock"])
        #expect(try flow("auth")["children"] == ["changePassword"])
        #expect(try flow("main")["children"] == ["home", "todos", "profile"])
        #expect(try flow("todos")["screens"] == ["todoList", "todoAdd", "todoDetail"])
        #expect(try flow("profile")["children"] == ["changePassword"])
        #expect(try flow("changePassword")["screens"] == ["changePassword", "forgotPassword", "resetPassword", "passwordChanged"])
    }

    @Test func describesEachScreensValues() throws {
        #expect(try flow("todos")["screenValues"] == [
            "todoList": [], "todoAdd": [], "todoDetail": [["name": "id", "type": "string", "required": true]],
        ])
        #expect(try flow("onboarding")["screenValues"]?["walkthrough"] == [["name": "page", "type": "integer", "required": true]])
        #expect(try flow("app")["screenValues"] == [:])
    }

    @Test func listsRoutesWithTypedParams() throws {
        let auth = try flow("auth")["routes"]
        #expect(auth == [
            ["name": "login", "screens": ["login"], "params": [
                ["name": "email", "type": "string", "required": true],
                ["name": "password", "type": "string", "required": true, "secret": true],
            ]],
            ["name": "register", "screens": ["login"], "params": []],
            ["name": "forgotPassword", "screens": ["login"], "params": []],
            ["name": "signUp", "screens": ["register"], "params": [
                ["name": "name", "type": "string", "required": true],
                ["name": "email", "type": "string", "required": true],
                ["name": "password", "type": "string", "required": true, "secret": true],
            ]],
            ["name": "confirmSignUp", "screens": ["confirmSignUp"], "params": [
                ["name": "code", "type": "string", "required": true, "secret": true],
            ]],
            ["name": "unlock", "screens": ["unlock"], "params": [
                ["name": "code", "type": "string", "required": true, "secret": true],
                ["name": "password", "type": "string", "required": true, "secret": true],
            ]],
        ])
        let update = try flow("todos")["routes"]?.arrayValue?.first { $0["name"] == "updateTodo" }
        #expect(update?["params"] == [
            ["name": "title", "type": "string", "required": true],
            ["name": "description", "type": "string", "required": false],
            ["name": "completed", "type": "boolean", "required": false],
        ])
        #expect(update?["screens"] == ["todoDetail"])
        let routeNames = try catalog()["flows"]?.arrayValue?.map { $0["routes"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? [] }
        #expect(routeNames == [
            [], ["next", "skip"], ["login", "register", "forgotPassword", "signUp", "confirmSignUp", "unlock"],
            ["savePassword", "sendCode", "resetPassword", "done"], [],
            ["openTodo"], ["addTodo", "showTodo", "saveTodo", "cancel", "updateTodo", "deleteTodo"], ["changePassword", "emailTodos", "logout"],
        ])
    }

    @Test func listsDeepLinkPatterns() throws {
        let links = try catalog()["deepLinks"]?.arrayValue
        #expect(links?.compactMap { $0["pattern"]?.stringValue } == [
            "wayfinder://todos", "wayfinder://todos/new", "wayfinder://todos/{id}", "wayfinder://profile",
            "wayfinder://profile/password", "wayfinder://signup",
        ])
        #expect(links?.allSatisfy { !($0["description"]?.stringValue ?? "").isEmpty } == true)
        #expect(links?.map { $0["flows"] } == [["todos"], ["todos"], ["todos"], ["profile"], ["profile"], ["auth"]])
    }

    @Test func theJSONDecodesBackIntoTheSameCatalog() throws {
        let catalog = demoApplication.catalog
        #expect(try JSONValueDecoder().decode(Catalog.self, from: JSONParser.parse(catalog.json)) == catalog)
    }

    @Test func dotOutputIsADigraph() {
        let dot = demoApplication.catalog.dot
        #expect(dot.hasPrefix("digraph wayfinder {"))
        #expect(dot.hasSuffix("}\n"))
        var depth = 0
        var balanced = true
        var inQuotes = false
        var escaped = false
        for character in dot {
            if escaped { escaped = false; continue }
            if character == "\\" { escaped = true; continue }
            if character == "\"" { inQuotes.toggle(); continue }
            if inQuotes { continue }
            if character == "{" { depth += 1 }
            if character == "}" { depth -= 1; if depth < 0 { balanced = false } }
        }
        #expect(balanced && depth == 0 && !inQuotes)
        #expect(dot.contains(#"subgraph "cluster_todos" {"#))
        #expect(dot.contains(#""app" -> "main";"#))
        #expect(dot.contains(#""profile" -> "changePassword";"#))
        #expect(dot.contains(#""todos.todoList" [label="todoList\naddTodo, showTodo"];"#))
        #expect(dot.contains(#""wayfinder://todos/{id}" [shape=note];"#))
    }
}
