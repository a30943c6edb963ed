import Testing
@testable import StorekeeperSchema

@Test func placeholder() { #expect(Bool(true)) }
