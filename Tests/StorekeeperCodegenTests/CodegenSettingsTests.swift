import StorekeeperCodegen
import StorekeeperCore
import StorekeeperDiagnostics
import Testing

@Suite struct CodegenSettingsTests {
    func decode(_ text: String) -> (settings: CodegenSettings, diagnostics: [Diagnostic]) {
        CodegenSettings.decode(Array(text.utf8), path: "App/storekeeper-codegen.json")
    }

    @Test func everyKey() {
        let (settings, diagnostics) = decode(#"{"access": "public", "typeAliases": false, "catalogs": ["../Catalogs/shop.yaml"]}"#)
        #expect(diagnostics.isEmpty)
        #expect(settings == CodegenSettings(access: .public, typeAliases: false, catalogs: ["../Catalogs/shop.yaml"]))
    }

    @Test func nothingSetIsTheDefault() {
        let (settings, diagnostics) = decode("{}")
        #expect(diagnostics.isEmpty)
        #expect(settings == CodegenSettings())
    }

    @Test func anUnknownKeyIsNamedWithTheNearestOne() {
        let (_, diagnostics) = decode(#"{"acess": "public"}"#)
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.rule == "codegen-settings")
        #expect(diagnostics.first?.message == #"unknown key "acess" in storekeeper-codegen.json; did you mean "access"? the keys are "access", "typeAliases", "catalogs""#)
    }

    @Test func wrongValuesSayWhatIsExpected() {
        let (_, diagnostics) = decode(#"{"access": "open", "typeAliases": "no", "catalogs": "shop.yaml"}"#)
        #expect(diagnostics.map(\.message) == [
            #""access" is one of "internal", "package", "public""#,
            #""typeAliases" is true or false"#,
            #""catalogs" is a list of catalog paths, relative to storekeeper-codegen.json: ["../../Catalogs/shop/catalog.yaml"]"#,
        ])
        #expect(diagnostics.allSatisfy { $0.location == SourceLocation(file: "App/storekeeper-codegen.json", line: 1, column: 1) })
    }

    @Test func aSyntaxErrorIsReportedWhereItIs() {
        let (_, diagnostics) = decode("{\n  \"access\": public\n}")
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.location.line == 2)
        #expect(diagnostics.first?.location.column == 13)
        #expect(diagnostics.first?.message.hasSuffix("(storekeeper-codegen.json is JSON)") == true)
    }

    @Test func notAnObject() {
        let (_, diagnostics) = decode("[]")
        #expect(diagnostics.first?.message == #"storekeeper-codegen.json holds a JSON object, like {"access": "public"}"#)
    }
}
