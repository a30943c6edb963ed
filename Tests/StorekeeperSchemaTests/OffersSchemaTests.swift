import Foundation
import StorekeeperCore
@testable import StorekeeperSchema
import StorekeeperYAML
import Testing

/// `offers` (promotional, offer-code and win-back offers of auto-renewable
/// subscriptions) in the schema, case by case; each case the CLI must agree
/// with too (accepted, or refused within the same offers list). The broken
/// catalogs `offer-*.yaml` check the rule ids and positions both ways.
@Suite struct OffersSchemaTests {
    struct Case: Sendable, CustomStringConvertible {
        var description: String
        /// The `offers:` list, in flow style.
        var offers: String
        /// The error expected, or nil for a valid list.
        var keyword: String?
        var pointer: String?
    }

    static let cases: [Case] = [
        Case(description: "every kind and mode", offers: """
            [{id: promo.half, kind: promotional, reference-name: Half price, mode: pay-as-you-go, period: P1M, periods: 3, price: "1.99"},
             {id: code.trial, kind: offer-code, reference-name: Code trial, mode: free-trial, period: P2W},
             {id: back-1, kind: win-back, reference-name: Come back, mode: pay-up-front, period: P3M, price: 4}]
            """),
        Case(description: "an empty list", offers: "[]"),
        Case(description: "an unknown kind", offers: "[{id: a, kind: intro, reference-name: A, mode: free-trial, period: P1W}]",
             keyword: "enum", pointer: "/products/0/offers/0/kind"),
        Case(description: "a missing reference name", offers: "[{id: a, kind: promotional, mode: free-trial, period: P1W}]",
             keyword: "required", pointer: "/products/0/offers/0"),
        Case(description: "a reference name of 65 characters",
             offers: "[{id: a, kind: promotional, reference-name: \(String(repeating: "x", count: 65)), mode: free-trial, period: P1W}]",
             keyword: "maxLength", pointer: "/products/0/offers/0/reference-name"),
        Case(description: "an id with a space", offers: "[{id: \"a b\", kind: promotional, reference-name: A, mode: free-trial, period: P1W}]",
             keyword: "pattern", pointer: "/products/0/offers/0/id"),
        Case(description: "an id of 101 characters",
             offers: "[{id: \(String(repeating: "x", count: 101)), kind: promotional, reference-name: A, mode: free-trial, period: P1W}]",
             keyword: "pattern", pointer: "/products/0/offers/0/id"),
        Case(description: "an unknown key", offers: "[{id: a, kind: promotional, reference-name: A, mode: free-trial, period: P1W, code: X}]",
             keyword: "additionalProperties", pointer: "/products/0/offers/0"),
        Case(description: "a free trial with a price", offers: "[{id: a, kind: promotional, reference-name: A, mode: free-trial, period: P1W, price: \"1\"}]",
             keyword: "false", pointer: "/products/0/offers/0"),
        Case(description: "a free trial of four weeks", offers: "[{id: a, kind: promotional, reference-name: A, mode: free-trial, period: P4W}]",
             keyword: "pattern", pointer: "/products/0/offers/0/period"),
        Case(description: "pay-up-front without a price", offers: "[{id: a, kind: win-back, reference-name: A, mode: pay-up-front, period: P3M}]",
             keyword: "required", pointer: "/products/0/offers/0"),
        Case(description: "pay-as-you-go at another period than the subscription's",
             offers: "[{id: a, kind: promotional, reference-name: A, mode: pay-as-you-go, period: P1Y, price: \"1\"}]",
             keyword: "pattern", pointer: "/products/0/offers/0/period"),
        Case(description: "thirteen periods", offers: "[{id: a, kind: promotional, reference-name: A, mode: pay-as-you-go, period: P1M, price: \"1\", periods: 13}]",
             keyword: "maximum", pointer: "/products/0/offers/0/periods"),
        Case(description: "a price with three decimals", offers: "[{id: a, kind: promotional, reference-name: A, mode: pay-up-front, period: P3M, price: \"0.999\"}]",
             keyword: "pattern", pointer: "/products/0/offers/0/price"),
        Case(description: "a mapping instead of a list", offers: "{id: a}", keyword: "type", pointer: "/products/0/offers"),
    ]

    static func catalog(offers: String, type: String = "auto-renewable-subscription") -> String {
        CatalogVariant.subscription(replacing: "    period: P1M\n", with: "    period: P1M\n    offers: \(offers)\n")
            .replacingOccurrences(of: "type: auto-renewable-subscription", with: "type: \(type)")
    }

    @Test func eachCaseIsAcceptedOrRefusedWhereExpected() throws {
        let documents = try Self.cases.map { try YAMLInstance(parsedDocument(Self.catalog(offers: $0.offers)).root.orThrow()).value.json }
        for (testCase, errors) in zip(Self.cases, try PythonSchemaValidator.errors(of: documents)) {
            guard let keyword = testCase.keyword else {
                #expect(errors.isEmpty, "\(testCase): \(errors)")
                #expect(try CatalogCheck.errors(ofCatalog: Self.catalog(offers: testCase.offers)).isEmpty, "\(testCase): the CLI refused what the schema accepts")
                continue
            }
            #expect(errors.contains { $0.keyword == keyword && $0.pointer == testCase.pointer }, "\(testCase): \(errors)")
            let cli = try CatalogCheck.errors(ofCatalog: Self.catalog(offers: testCase.offers))
            #expect(!cli.isEmpty, "\(testCase): the CLI accepted what the schema refuses")
            #expect(errors.allSatisfy { $0.pointer.hasPrefix("/products/0/offers") }, "\(testCase): \(errors)")
        }
    }

    @Test func onlyAutoRenewableSubscriptionsHaveOffers() throws {
        let offers = "[{id: a, kind: promotional, reference-name: A, mode: free-trial, period: P1W}]"
        let text = Self.catalog(offers: offers, type: "non-renewing-subscription")
            .replacingOccurrences(of: "    group: pro\n    period: P1M\n", with: "    duration: P1M\n")
        let errors = try PythonSchemaValidator.errors(of: [try YAMLInstance(parsedDocument(text).root.orThrow()).value.json])[0]
        #expect(errors.map(\.keyword) == ["false"], "\(errors)")
    }
}
