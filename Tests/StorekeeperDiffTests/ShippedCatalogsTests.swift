import Foundation
import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperDiff
import Testing

/// The shipped catalogs: unchanged, nothing to report; a realistic release of
/// Rocket Racer, each change reported once, where it was made.
@Suite struct ShippedCatalogsTests {
    @Test func theShippedCatalogsAgainstThemselvesHaveNoFindings() throws {
        let run = try CatalogValidator().run([DiffFixtures.root + "/Catalogs"])
        #expect(run.catalogs.count == 3)
        #expect(!run.report.fails())
        #expect(CatalogDiff().compare(old: run.catalogs, new: run.catalogs).isEmpty)
    }

    /// A release that changes many things at once, on a copy of Rocket Racer.
    @Test func aRealisticChangeToRocketRacerIsReportedChangeByChange() throws {
        let old = try DiffFixtures.rocketRacer()
        let hoverTruck = try #require(old.range(of: "  - id: com.example.rocketracer.vehicle.hovertruck"))
        let canyon = try #require(old.range(of: "  - id: com.example.rocketracer.tracks.canyon"))
        var new = old
        new.removeSubrange(hoverTruck.lowerBound..<canyon.lowerBound)  // a vehicle retired
        new = try #require(new
            // Remove Ads: dearer, Family Sharing off, its record moved to user defaults.
            .replacingFirst("reference-name: Remove Ads\n    price: \"3.99\"\n    family-shareable: true",
                            with: "reference-name: Remove Ads\n    price: \"4.99\"\n    family-shareable: false")?
            .replacingFirst("    delivery: {model: built-in, unlocks: [ad-free]}\n",
                            with: "    delivery: {model: built-in, unlocks: [ad-free]}\n    persistence: user-defaults\n")?
            // Pro Plus drops below Pro; the season pass is shortened and no longer restored.
            .replacingFirst("group: pro\n    level: 1", with: "group: pro\n    level: 3")?
            .replacingFirst("duration: P3M", with: "duration: P1M")?
            .replacingFirst("restore: icloud\n", with: "restore: none\n")?
            // Boosts renamed to nitro.
            .replacingFirst("balances: [coins, boosts]", with: "balances: [coins, nitro]")?
            .replacingFirst("grants: {boosts: 5}", with: "grants: {nitro: 5}")?
            // The canyon pack restored by a receipt refresh.
            .replacingFirst("    restore: {policy: restore-transactions, selection: user}\n\n  - id: com.example.rocketracer.tracks.neon",
                            with: "    restore: receipt-refresh\n\n  - id: com.example.rocketracer.tracks.neon"))
        let found = try DiffFixtures.diff(old: old, new: new)
        func at(_ file: String, _ needle: String, after: Int = 0) -> String {
            "\(file):\(DiffFixtures.line(of: needle, in: file == "old.yaml" ? old : new, after: after) ?? -1)"
        }
        let seasonPass = DiffFixtures.line(of: "seasonpass.spring", in: new) ?? 0
        let expected = [
            "diff-balance-removed \(at("old.yaml", "balances: [coins, boosts]"))",
            "diff-duration-shortened \(at("new.yaml", "duration: P1M"))",
            "diff-family-sharing \(at("new.yaml", "family-shareable: false"))",
            "diff-persistence \(at("new.yaml", "persistence: user-defaults"))",
            "diff-price \(at("new.yaml", "price: \"4.99\"", after: DiffFixtures.line(of: "Remove Ads", in: new) ?? 0))",
            "diff-product-removed \(at("old.yaml", "id: com.example.rocketracer.vehicle.hovertruck"))",
            "diff-restore \(at("new.yaml", "restore: none", after: seasonPass))",
            "diff-restore \(at("new.yaml", "restore: receipt-refresh", after: DiffFixtures.line(of: "tracks.canyon", in: new) ?? 0))",
            "diff-subscription-level \(at("new.yaml", "level: 3"))",
        ]
        #expect(found.map { "\($0.rule) \($0.location.file):\($0.location.line)" }.sorted() == expected.sorted())
        #expect(found.filter { $0.severity == .error }.count == 7)
        #expect(found.allSatisfy { !$0.notes.isEmpty || $0.location.file == "old.yaml" }, "each change in the new catalog notes the old value")
    }

    @Test func anUnrelatedEditChangesNothingForBuyers() throws {
        let old = try DiffFixtures.rocketRacer()
        // New localizations, a new product, a new feature, comments: nothing taken from anyone.
        let new = try #require(old
            .replacingFirst("      en-US: {title: Rocket Car, description: Fly over the traffic}\n",
                            with: "      en-US: {title: Rocket Car, description: Fly over every jam}\n      it: {title: Auto razzo, description: Vola sul traffico}\n")?
            .replacingFirst("  - season-events\n", with: "  - season-events\n  - ghost-mode\n")?
            .replacingFirst("rules:\n", with: """
                  - id: com.example.rocketracer.ghost
                    type: non-consumable
                    reference-name: Ghost Mode
                    price: "1.99"
                    localizations:
                      en-US: {title: Ghost Mode, description: Race your best lap}
                    delivery: {model: built-in, unlocks: [ghost-mode]}

                rules:

                """))
        #expect(try DiffFixtures.diff(old: old, new: new).isEmpty)
    }
}
