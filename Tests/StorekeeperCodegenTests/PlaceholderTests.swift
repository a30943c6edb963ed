import Testing
@testable import StorekeeperCodegen

@Test func placeholder() { #expect(Bool(true)) }
