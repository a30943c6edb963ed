import StorekeeperCore
import StorekeeperRuntime

/// Apple-hosted content for the drill's track packs: nothing is fetched; the
/// location names the product, relative, so that two state folders report
/// the same place. It may kill the process before and after the "download".
struct DrillContentDownloader: HostedContentDownloader {
    let killSwitch: KillSwitch

    func download(productID: String, transactionID: String, storage: ContentStorage?) async throws(StepFailure) -> String {
        killSwitch.reach(.downloadBefore)
        let path = "Downloads/\(storage?.rawValue ?? "cache")/\(productID)"
        killSwitch.reach(.downloadAfter)
        return path
    }
}
