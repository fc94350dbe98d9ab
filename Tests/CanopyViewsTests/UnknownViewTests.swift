import CanopyCore
import Testing

/// `createTree` naming a view the program does not have is a bad message (docs/protocol.md), not a Swift fault.
@Suite struct UnknownViewTests {
    @Test func anUnknownViewIsABadMessage() throws {
        do {
            _ = try ProgramFixture(PreviewRestartTests.source, view: "Nope")
            Issue.record("started")
        } catch let error as CanopyError {
            #expect(error.code == .badMessage)
            #expect(error.message == "the program has no view 'Nope'; its views: Badge")
        }
    }
}
