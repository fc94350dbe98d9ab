import CanopyNATS
import Testing

@testable import CanopyServer

/// The lease keeper asks the bucket only about leases that may be free: what its watch saw decides.
struct LeaseSightingsTests {
    let me = Array("d1".utf8)
    let other = Array("d2".utf8)

    @Test func withoutAWatchEveryLeaseMayBeFree() {
        var sightings = LeaseSightings()
        sightings.saw(KeyValueChange(key: "t", value: other, revision: 1), at: 0)
        #expect(sightings.mayBeFree("t", name: me, leaseSeconds: 3, now: 0))
    }

    @Test func aLeaseRenewedWithinTheLeaseTimeByAnotherDaemonIsNotAskedAbout() {
        var sightings = LeaseSightings()
        sightings.started()
        sightings.saw(KeyValueChange(key: "t", value: other, revision: 1), at: 10)
        #expect(!sightings.mayBeFree("t", name: me, leaseSeconds: 3, now: 12.9))
        #expect(sightings.mayBeFree("t", name: me, leaseSeconds: 3, now: 13), "not renewed for a lease time")
        sightings.saw(KeyValueChange(key: "t", value: other, revision: 2), at: 13.5)
        #expect(!sightings.mayBeFree("t", name: me, leaseSeconds: 3, now: 14), "renewed")
    }

    @Test func unseenDeletedEmptyAndOwnLeasesMayBeFree() {
        var sightings = LeaseSightings()
        sightings.started()
        sightings.saw(KeyValueChange(key: "deleted", value: nil, revision: 1), at: 10)
        sightings.saw(KeyValueChange(key: "empty", value: [], revision: 2), at: 10)
        sightings.saw(KeyValueChange(key: "mine", value: me, revision: 3), at: 10)
        for tree in ["unseen", "deleted", "empty", "mine"] {
            #expect(sightings.mayBeFree(tree, name: me, leaseSeconds: 3, now: 10), "\(tree)")
        }
    }

    @Test func aLostWatchForgetsWhatItSaw() {
        var sightings = LeaseSightings()
        sightings.started()
        sightings.saw(KeyValueChange(key: "t", value: other, revision: 1), at: 10)
        sightings.lost()
        #expect(!sightings.watching)
        #expect(sightings.mayBeFree("t", name: me, leaseSeconds: 3, now: 10))
        sightings.started()
        #expect(sightings.mayBeFree("t", name: me, leaseSeconds: 3, now: 10), "not seen by the new watch yet")
    }
}
