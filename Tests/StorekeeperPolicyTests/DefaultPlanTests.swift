import StorekeeperCatalog
import StorekeeperCore
@testable import StorekeeperPolicy
import StorekeeperDiagnostics
import Testing

/// The default plans follow the guide for every shape of product: the
/// invariants the custom-rule checks rely on without re-checking defaults.
@Suite struct DefaultPlanTests {
    @Test func everyDefaultPlanFinishesOnlyAfterDeliveringAndOnlyWhenComplete() throws {
        let catalog = try #require(PolicyFixtures.everyShape)
        #expect(catalog.products.count > 100)
        for product in catalog.products {
            for situation in PlanSituation.all {
                let steps = DefaultPlan.steps(for: product, in: situation)
                let finish = steps.firstIndex(of: .finish)
                switch situation.state {
                case .purchasing, .deferred:
                    #expect(steps == [.notify], "\(product.id.value) \(situation)")
                case .purchased, .restored, .failed:
                    #expect(finish == steps.count - 1, "\(product.id.value) \(situation): \(steps)")
                    #expect(Set(steps).count == steps.count, "no step twice: \(steps)")
                }
            }
        }
    }

    @Test func purchasedPlansDeliverWhatTheProductHas() throws {
        let catalog = try #require(PolicyFixtures.everyShape)
        for product in catalog.products {
            let steps = DefaultPlan.steps(for: product, in: PlanSituation(.purchased))
            let server = product.delivery.model.value == .server || product.persistence.strategy.value == .server
            #expect(steps.contains(.verifyReceipt) == server, "\(product.id.value): \(steps)")
            let source = product.delivery.content?.source.value
            #expect(steps.contains(.download) == (source == .appleHosted || source == .server), "\(product.id.value): \(steps)")
            #expect(steps.contains(.persist))
            #expect(steps.contains(.grant) == (product.type.value == .consumable))
            #expect(steps.contains(.unlock) == (product.type.value != .consumable))
            if steps.contains(.verifyReceipt) { #expect(steps.first == .verifyReceipt, "verify before delivering") }
        }
    }

    /// A restore is how a purchase reaches a new device, which has none of
    /// its content: content that is not in the bundle, Apple-hosted or from
    /// the app's server, is downloaded again ("re-download the user-selected
    /// content", Restoring Purchased Products,
    /// https://developer.apple.com/library/archive/documentation/NetworkingInternet/Conceptual/StoreKitGuide/Chapters/Restoring.html).
    @Test func restoredPlans() throws {
        let catalog = try #require(PolicyFixtures.everyShape)
        var downloaded: Set<ContentSource> = []
        for product in catalog.products {
            let steps = DefaultPlan.steps(for: product, in: PlanSituation(.restored))
            let source = product.delivery.content?.source.value
            let downloads = source == .appleHosted || source == .server
            if product.type.value == .consumable {
                #expect(steps == [.finish], "a consumable is never delivered again")
            } else if product.persistence.strategy.value == .receipt {
                #expect(steps == (downloads ? [.download, .finish] : [.finish]), "\(product.id.value)")
            } else {
                #expect(steps.contains(.persist) && steps.contains(.unlock) && steps.last == .finish, "\(product.id.value): \(steps)")
                #expect(steps.contains(.download) == downloads, "\(product.id.value): \(steps)")
            }
            if steps.contains(.download), let source { downloaded.insert(source) }
        }
        #expect(downloaded == [.appleHosted, .server], "the fixture has restored products of both sources")
    }

    @Test func failedPlansShowErrorsExceptACancelledPayment() throws {
        let catalog = try #require(PolicyFixtures.everyShape)
        let product = try #require(catalog.products.first)
        for error in StoreErrorCode.allCases {
            let steps = DefaultPlan.steps(for: product, in: PlanSituation(.failed, error: error))
            #expect(steps == (error == .paymentCancelled ? [.finish] : [.presentError, .finish]))
        }
    }

    @Test func situationsCoverEveryStateAndEveryErrorOnce() {
        #expect(PlanSituation.all.count == 4 + StoreErrorCode.allCases.count)
        #expect(Set(PlanSituation.all).count == PlanSituation.all.count)
        #expect(PlanSituation(.purchased, error: .networkError).error == nil, "only failed plans depend on the error")
    }
}
