import StorekeeperRuntime
import Testing

/// docs/server-contract.md, "Ids in paths": what the app writes as one
/// segment, a server reads back as the same id, and nothing else reads as
/// an id (a malformed escape, a raw byte a path may not hold, bytes that
/// are not UTF-8).
@Suite struct ServerPathTests {
    @Test(arguments: ["1000000003", "a/b c", "..", ".", "k?x=1&y#z", "100%", "ünïcödé-ß", "~-._", "%2F"])
    func aSegmentDecodesToTheIdItEncodes(_ id: String) {
        let segment = ServerPath.segment(id)
        #expect(!segment.contains("/"))
        #expect(ServerPath.decodedSegment(Substring(segment)) == id)
    }

    @Test func lowercaseEscapesAndRawSubDelimitersAreRead() {
        #expect(ServerPath.decodedSegment("a%2fb") == "a/b")
        #expect(ServerPath.decodedSegment("k:1@x+y") == "k:1@x+y")
    }

    @Test(arguments: ["%", "%2", "%zz", "a b", "a/b", "a?b", "é", "%FF", "%C3"])
    func whatIsNotASegmentReadsAsNothing(_ raw: String) {
        #expect(ServerPath.decodedSegment(Substring(raw)) == nil)
    }
}
