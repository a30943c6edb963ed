import Testing
@testable import StorekeeperStoreKit

@Test func placeholder() { #expect(Bool(true)) }
