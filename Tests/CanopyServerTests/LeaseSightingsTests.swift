import CanopyNATS
import Testing

@testable import CanopyServer

/// The lease keeper asks the bucket only about leases that may be free, from when they may be: what its watch saw
/// decides.
struct LeaseSightingsTests {
    let me = Array("d1".utf8)
    let other = Array("d2".utf8)

    @Test func withoutAWatchEveryLeaseMayBeFreeAtAnyTime() {
        var sightings = LeaseSightings()
        sightings.saw(KeyValueChange(key: "t", value: other, revision: 1), at: 0)
        #expect(sightings.freeFrom("t", name: me, leaseSeconds: 3) == -.infinity)
    }

    @Test func aLeaseRenewedByAnotherDaemonMayBeFreeALeaseTimeAfterItsLastRenewalSeen() {
        var sightings = LeaseSightings()
        sightings.started()
        sightings.saw(KeyValueChange(key: "t", value: other, revision: 1), at: 10)
        #expect(sightings.freeFrom("t", name: me, leaseSeconds: 3) == 13)
        sightings.saw(KeyValueChange(key: "t", value: other, revision: 2), at: 10.7)
        #expect(sightings.freeFrom("t", name: me, leaseSeconds: 3) == 13.7, "renewed: due later")
    }

    @Test func aDeletedOrEmptiedLeaseMayBeFreeFromWhenThatWasSeen() {
        var sightings = LeaseSightings()
        sightings.started()
        sightings.saw(KeyValueChange(key: "deleted", value: other, revision: 1), at: 10)
        sightings.saw(KeyValueChange(key: "deleted", value: nil, revision: 2), at: 11)
        sightings.saw(KeyValueChange(key: "empty", value: [], revision: 3), at: 12)
        #expect(sightings.freeFrom("deleted", name: me, leaseSeconds: 3) == 11)
        #expect(sightings.freeFrom("empty", name: me, leaseSeconds: 3) == 12)
    }

    @Test func unseenAndOwnLeasesMayBeFreeAtAnyTime() {
        var sightings = LeaseSightings()
        sightings.started()
        sightings.saw(KeyValueChange(key: "mine", value: me, revision: 1), at: 10)
        #expect(sightings.freeFrom("unseen", name: me, leaseSeconds: 3) == -.infinity)
        #expect(sightings.freeFrom("mine", name: me, leaseSeconds: 3) == -.infinity, "a previous life's")
    }

    @Test func aLostWatchForgetsWhatItSaw() {
        var sightings = LeaseSightings()
        sightings.started()
        sightings.saw(KeyValueChange(key: "t", value: other, revision: 1), at: 10)
        sightings.lost()
        #expect(!sightings.watching)
        #expect(sightings.freeFrom("t", name: me, leaseSeconds: 3) == -.infinity)
        sightings.started()
        #expect(sightings.freeFrom("t", name: me, leaseSeconds: 3) == -.infinity, "not seen by the new watch yet")
    }
}
