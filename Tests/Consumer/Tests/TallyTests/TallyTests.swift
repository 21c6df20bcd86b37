import TallyApp
import Testing
import WayfinderCore
import WayfinderTesting

@Test func addingPushesTheNewTotal() throws {
    var session = try TestSession(Tally.makeApplication())
    #expect(session.snapshot.stack == ["total(value: 0)"])
    try session.send(CountingFlow.Route.add(amount: 2)) {
        $0.stack.append("total(value: 2)")
        $0.navigation = "[total(value: 0), total(value: 2)]"
        $0.transitions = ["push total(value: 2)"]
    }
}
