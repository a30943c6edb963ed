import Foundation
import StorekeeperContract
import StorekeeperTestSupport
import Testing

/// Every JSON example in docs/server-contract.md, decoded and re-encoded
/// through the contract's types: the document is the oracle of both sides
/// (the app's client and `storekeeper-server` code their bodies with these
/// types), so an example they cannot read, or would write otherwise, fails.
@Suite struct DocumentExampleTests {
    /// One JSON body of the document: the section it is under, whether it is a
    /// request (the body of an `http` block) or an answer (a `json` block), and its text.
    struct Example: CustomStringConvertible, Sendable {
        var section: String
        var isRequest: Bool
        var text: String
        var description: String { "\(section) \(isRequest ? "request" : "answer"): \(text.prefix(60))" }
    }

    static let examples: [Example] = {
        let path = PackageRoot.path + "/docs/server-contract.md"
        guard let document = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        var found: [Example] = []
        var section = ""
        var block: (isRequest: Bool, lines: [String])?
        for line in document.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("## ") { section = String(line.dropFirst(3)) }
            if var open = block {
                if line.hasPrefix("```") {
                    // An http block's body is what follows its headers' blank line; a json block is all body.
                    let body = open.isRequest ? Array(open.lines.drop { !$0.isEmpty }.dropFirst()) : open.lines
                    if !body.isEmpty { found.append(Example(section: section, isRequest: open.isRequest, text: body.joined(separator: "\n"))) }
                    block = nil
                } else {
                    open.lines.append(line)
                    block = open
                }
            } else if line == "```json" || line == "```http" {
                block = (line == "```http", [])
            }
        }
        return found
    }()

    /// Decodes `text` as `Body`, applies `check`, and re-encodes it.
    static func roundTrip<Body: Codable>(_ type: Body.Type, _ text: String, check: (Body) throws -> Void = { _ in }) throws -> [UInt8] {
        let body = try ContractCoding.decode(Body.self, from: Array(text.utf8))
        try check(body)
        return try ContractCoding.encode(body)
    }

    /// The contract's type for each example, by section and direction.
    static func reencoded(_ example: Example) throws -> [UInt8]? {
        switch (example.section, example.isRequest) {
        case ("Statuses and errors", false): try roundTrip(ServerErrorBody.self, example.text)
        case ("GET /v1/account", false): try roundTrip(AccountBody.self, example.text) { _ = try $0.validate() }
        case ("POST /v1/transactions", true): try roundTrip(SignedTransactionBody.self, example.text)
        case ("POST /v1/transactions", false): try roundTrip(KeptTransactionBody.self, example.text)
        case ("POST /v1/receipts/verify", true): try roundTrip(ReceiptVerificationBody.self, example.text)
        case ("The record object", false), ("PUT /v1/records/{transactionID}", true):
            try roundTrip(RecordObject.self, example.text) { _ = try $0.validate() }
        case ("GET /v1/records", false): try roundTrip(RecordList.self, example.text) { list in try list.records.forEach { _ = try $0.validate() } }
        case ("GET /v1/entitlements", false): try roundTrip(ServerEntitlements.self, example.text)
        case ("PUT /v1/spends/{key}", true): try roundTrip(SpendBody.self, example.text) { try $0.validate() }
        case ("PUT /v1/spends/{key}", false): try roundTrip(SpendAnswerBody.self, example.text)
        default: nil
        }
    }

    @Test func theDocumentHasItsExamples() {
        // Every route with a body shows one; fewer means the reader above lost some.
        #expect(Self.examples.count >= 11, "\(Self.examples)")
    }

    @Test(arguments: examples)
    func eachExampleRoundTripsThroughTheContractsTypes(_ example: Example) throws {
        let written = try #require(try Self.reencoded(example), "no contract type for \(example); name one in DocumentExampleTests")
        let original = try JSONSerialization.jsonObject(with: Data(example.text.utf8)) as? NSObject
        let again = try JSONSerialization.jsonObject(with: Data(written)) as? NSObject
        #expect(original != nil && original == again, "\(example) came back as \(String(decoding: written, as: UTF8.self))")
    }
}
