@testable import DemoApp
import Testing

/// The account service on its own, with a clock the tests move: what the flows cannot show.
@Suite struct UserStoreTests {
    private let time = ManualClock()

    private func store() throws -> UserStore {
        try UserStore.inMemory(accounts: ["ada@example.com": "correct horse"], mailer: Mailer(clock: time.clock), clock: time.clock)
    }

    @Test func theDummyHashIsTheSameKDFWithTheSameSettingAsARealOne() throws {
        let real = try Yescrypt.hash("anything at all")
        let setting = { (hash: String) in hash.split(separator: "$").prefix(2) }
        #expect(setting(Yescrypt.dummy) == setting(real))
        #expect(Yescrypt.dummy.utf8.count == real.utf8.count)
        #expect(!Yescrypt.verify("correct horse", Yescrypt.dummy))
    }

    @Test func addressesAreComparedWithoutCaseOrSpaces() throws {
        let users = try store()
        #expect(try users.signIn(email: " ADA@example.com ", password: "correct horse", session: "s") == .signedIn)
    }

    @Test func aLockLastsADayWhenNobodyLiftsIt() throws {
        let users = try store()
        for n in 1...Attempts.lockAfter { _ = try users.signIn(email: "ada@example.com", password: "guess \(n)", session: "s\(n)") }
        #expect(try users.signIn(email: "ada@example.com", password: "correct horse", session: "other") == .locked)
        time.advance(by: UserStore.lockLifetime - .seconds(1))
        #expect(try users.signIn(email: "ada@example.com", password: "correct horse", session: "other") == .locked)
        time.advance(by: .seconds(1))
        #expect(try users.signIn(email: "ada@example.com", password: "correct horse", session: "other") == .signedIn)
    }

    @Test func aCodeExpiresAndAllowsOnlyAFewWrongTries() throws {
        let users = try store()
        #expect(try users.startSignUp(name: "Grace", email: "grace@example.com", password: "cobol1959", key: "k1") == .codeSent)
        let code = try #require(users.mailer.code(to: "grace@example.com"))
        time.advance(by: OneTimeCode.lifetime)
        #expect(try users.confirmSignUp(email: "grace@example.com", code: code) == .wrongCode, "expired")

        #expect(try users.startSignUp(name: "Grace", email: "grace@example.com", password: "cobol1959", key: "k2") == .codeSent)
        let second = try #require(users.mailer.code(to: "grace@example.com"))
        for _ in 0..<OneTimeCode.tries { _ = try users.confirmSignUp(email: "grace@example.com", code: second == "000000" ? "111111" : "000000") }
        #expect(try users.confirmSignUp(email: "grace@example.com", code: second) == .wrongCode, "used up")
        #expect(try users.signIn(email: "grace@example.com", password: "cobol1959", session: "s") == .refused)
    }

    @Test func anAddressGetsAtMostItsDailyMail() throws {
        let users = try store()
        for n in 0..<Mailer.perAddressPerDay + 5 { _ = try users.sendResetCode(email: "ada@example.com", key: "reset-\(n)") }
        #expect(users.mailer.outbox.count == Mailer.perAddressPerDay)
        time.advance(by: .seconds(24 * 3600))
        _ = try users.sendResetCode(email: "ada@example.com", key: "tomorrow")
        #expect(users.mailer.outbox.count == Mailer.perAddressPerDay + 1)
    }
}
