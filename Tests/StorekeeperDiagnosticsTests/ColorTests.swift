import StorekeeperCore
import StorekeeperDiagnostics
import Testing

@Suite("Colour choice")
struct ColorTests {
    @Test(
        "colours only a terminal without NO_COLOR and with a capable TERM",
        arguments: [
            (true, [String: String](), true),
            (true, ["TERM": "xterm-256color"], true),
            (true, ["NO_COLOR": ""], true),
            (true, ["NO_COLOR": "1"], false),
            (true, ["NO_COLOR": "0"], false),
            (true, ["NO_COLOR": "yes", "TERM": "xterm"], false),
            (true, ["TERM": "dumb"], false),
            (true, ["TERM": ""], true),
            (false, [String: String](), false),
            (false, ["TERM": "xterm-256color"], false),
            (false, ["NO_COLOR": ""], false),
        ])
    func shouldUseColor(isTerminal: Bool, environment: [String: String], expected: Bool) {
        #expect(TextReporter.shouldUseColor(isTerminal: isTerminal, environment: environment) == expected)
        #expect(ColorChoice.auto.resolve(isTerminal: isTerminal, environment: environment) == expected)
    }

    @Test("always and never ignore the terminal and the environment")
    func forcedChoices() {
        for isTerminal in [true, false] {
            for environment in [[:], ["NO_COLOR": "1"], ["TERM": "dumb"]] {
                #expect(ColorChoice.always.resolve(isTerminal: isTerminal, environment: environment))
                #expect(!ColorChoice.never.resolve(isTerminal: isTerminal, environment: environment))
            }
        }
    }

    @Test("parses the option spellings")
    func rawValues() {
        #expect(ColorChoice(rawValue: "auto") == .auto)
        #expect(ColorChoice(rawValue: "always") == .always)
        #expect(ColorChoice(rawValue: "never") == .never)
        #expect(ColorChoice(rawValue: "sometimes") == nil)
        #expect(ColorChoice.allCases.map(\.rawValue) == ["auto", "always", "never"])
    }
}
