import Foundation
// For `simulate`: not in the façade, which links no SQLite (see Package.swift).
import StorekeeperCommandLine
import StorekeeperScenarios
import StorekeeperSimulatedStore
import StorekeeperTooling

/// Prints a simulation's trace as it happens. On a terminal a download's
/// progress redraws one line (a progress bar) instead of adding lines.
final class TracePrinter: Sendable {
    private let renderer: TraceTextRenderer
    private let file: String
    private let terminal: Bool
    /// Whether a progress bar is on the line; the lock also keeps two events' lines apart.
    private let barShown = Locked(false)

    init(renderer: TraceTextRenderer, file: String, terminal: Bool) {
        self.renderer = renderer
        self.file = file
        self.terminal = terminal
    }

    func print(_ event: TraceEvent) {
        barShown.withLock { barShown in
            if terminal, case .download(let report) = event, report.state == .active {
                StandardOutput.write("\r\u{1B}[2K" + renderer.progressBar(report), what: "the trace")
                barShown = true
                return
            }
            if barShown {
                // The bar gives way to the line of what the download came to.
                StandardOutput.write("\r\u{1B}[2K", what: "the trace")
                barShown = false
            }
            StandardOutput.write(renderer.line(event, file: file), what: "the trace")
        }
    }

    /// Ends a progress bar left on the line.
    func endLine() {
        barShown.withLock { barShown in
            if barShown { StandardOutput.write("\n", what: "the trace") }
            barShown = false
        }
    }
}
