import Foundation
import StorekeeperTestSupport
import Testing

/// docs/storekit-backends.md shows the StoreKit 2 app example that
/// Scripts/check-storekit-mirror compiles, as it is.
@Suite struct StoreKitBackendsDocTests {
    static let example = "StoreKitMirror/Sources/StoreKitMirrorExamples/StoreKit2AppExample.swift"
    static let marker = "// docs/storekit-backends.md shows this file from here to its end.\n"

    @Test func theDocShowsTheCompiledExample() throws {
        let source = try String(contentsOfFile: "\(PackageRoot.path)/\(Self.example)", encoding: .utf8)
        let parts = source.components(separatedBy: Self.marker)
        try #require(parts.count == 2, "\(Self.example) has no line '\(Self.marker.dropLast())'")
        let shown = parts[1].trimmingCharacters(in: .newlines)
        try #require(shown.split(separator: "\n").count > 20, "the example's body is there")
        let doc = try String(contentsOfFile: "\(PackageRoot.path)/docs/storekit-backends.md", encoding: .utf8)
        #expect(doc.contains("```swift\nimport StorekeeperCore\nimport StorekeeperQueue\nimport StorekeeperRuntime\nimport StorekeeperStoreKit\n\n\(shown)\n```"),
                "docs/storekit-backends.md must show \(Self.example) from its marker on, verbatim, after the app's imports")
    }
}
