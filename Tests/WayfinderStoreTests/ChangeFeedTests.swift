import Testing
import WayfinderStore

@Suite("ChangeFeed")
struct ChangeFeedTests {
    @Test func deliversOnlyTheSubscribedSessionsChanges() {
        let feed = ChangeFeed()
        let recorder = ChangeRecorder()
        let subscription = feed.subscribe("a") { recorder.record($0) }
        feed.publish("b", .saved(revision: 2))
        feed.publish("a", .saved(revision: 2))
        #expect(recorder.changes == [.saved(revision: 2)])
        subscription.cancel()
    }

    @Test func staleSavesAreDroppedAndDeletedIsTheLastChange() {
        let feed = ChangeFeed()
        let recorder = ChangeRecorder()
        let subscription = feed.subscribe("a") { recorder.record($0) }
        feed.publish("a", .saved(revision: 3))
        feed.publish("a", .saved(revision: 2))  // lost a race with revision 3
        feed.publish("a", .saved(revision: 3))  // duplicate
        feed.publish("a", .saved(revision: 4))
        feed.publish("a", .deleted)
        feed.publish("a", .saved(revision: 5))
        feed.publish("a", .deleted)
        #expect(recorder.changes == [.saved(revision: 3), .saved(revision: 4), .deleted])
        subscription.cancel()
    }

    @Test func releasingTheSubscriptionCancelsIt() {
        let feed = ChangeFeed()
        let recorder = ChangeRecorder()
        do {
            let subscription = feed.subscribe("a") { recorder.record($0) }
            #expect(feed.subscriberCount("a") == 1)
            _ = subscription
        }
        #expect(feed.subscriberCount("a") == 0)
        feed.publish("a", .saved(revision: 2))
        #expect(recorder.changes == [])
    }

    @Test func aHandlerMayCancelItsOwnSubscription() {
        let feed = ChangeFeed()
        let recorder = ChangeRecorder()
        let holder = SubscriptionHolder()
        holder.subscription = feed.subscribe("a") { change in
            recorder.record(change)
            holder.subscription?.cancel()
        }
        feed.publish("a", .saved(revision: 2))
        feed.publish("a", .saved(revision: 3))
        #expect(recorder.changes == [.saved(revision: 2)])
        #expect(feed.subscriberCount("a") == 0)
    }

    /// The feed skips publishing while nobody subscribes; subscriptions ending and starting
    /// again, on other sessions too, keep the count that decides it right.
    @Test func deliveriesResumeAfterEverySubscriptionEndedAndANewOneStarts() {
        let feed = ChangeFeed()
        let recorder = ChangeRecorder()
        let first = feed.subscribe("a") { recorder.record($0) }
        let other = feed.subscribe("b") { _ in }
        first.cancel()
        first.cancel()  // cancelling twice counts once
        other.cancel()
        feed.publish("a", .saved(revision: 2))
        #expect(recorder.changes == [])
        let again = feed.subscribe("a") { recorder.record($0) }
        feed.publish("a", .saved(revision: 3))
        #expect(recorder.changes == [.saved(revision: 3)])
        again.cancel()
        feed.publish("a", .saved(revision: 4))
        #expect(recorder.changes == [.saved(revision: 3)])
        let last = feed.subscribe("a") { recorder.record($0) }
        feed.publish("a", .saved(revision: 5))
        #expect(recorder.changes == [.saved(revision: 3), .saved(revision: 5)])
        last.cancel()
    }

    @Test func everySubscriberOfASessionIsTold() {
        let feed = ChangeFeed()
        let first = ChangeRecorder()
        let second = ChangeRecorder()
        let a = feed.subscribe("a") { first.record($0) }
        let b = feed.subscribe("a") { second.record($0) }
        feed.publish("a", .deleted)
        #expect(first.changes == [.deleted])
        #expect(second.changes == [.deleted])
        a.cancel()
        b.cancel()
    }
}

/// Lets a handler reach its own subscription.
final class SubscriptionHolder: @unchecked Sendable {
    // Set once before the first publish and read on the publishing thread only.
    var subscription: Subscription?
}
