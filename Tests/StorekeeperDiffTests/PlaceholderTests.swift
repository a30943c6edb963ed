import Testing
@testable import StorekeeperDiff

@Test func placeholder() { #expect(Bool(true)) }
