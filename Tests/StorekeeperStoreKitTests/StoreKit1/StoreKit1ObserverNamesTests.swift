import Foundation
import StorekeeperTestSupport
import Testing

/// `SKPaymentTransactionObserver` is an Objective-C protocol whose methods
/// are optional but one: an optional method with a misspelt name compiles
/// (on Apple platforms with at most a warning, on Linux against the mirror,
/// which cannot declare optional requirements, with none) and is never
/// called. So the observer's method names are checked against Apple's
/// documentation of the protocol, here, by reading the source.
@Suite struct StoreKit1ObserverNamesTests {
    /// Every method of `SKPaymentTransactionObserver`, as Apple documents it
    /// (developer.apple.com/documentation/storekit/skpaymenttransactionobserver):
    /// the Swift name, and the Objective-C selector it stands for.
    static let documented: [String: String] = [
        "paymentQueue(_:updatedTransactions:)": "paymentQueue:updatedTransactions:",
        "paymentQueue(_:removedTransactions:)": "paymentQueue:removedTransactions:",
        "paymentQueueRestoreCompletedTransactionsFinished(_:)": "paymentQueueRestoreCompletedTransactionsFinished:",
        "paymentQueue(_:restoreCompletedTransactionsFailedWithError:)": "paymentQueue:restoreCompletedTransactionsFailedWithError:",
        "paymentQueue(_:updatedDownloads:)": "paymentQueue:updatedDownloads:",
        "paymentQueue(_:shouldAddStorePayment:for:)": "paymentQueue:shouldAddStorePayment:forProduct:",
        "paymentQueueDidChangeStorefront(_:)": "paymentQueueDidChangeStorefront:",
        "paymentQueue(_:didRevokeEntitlementsForProductIdentifiers:)": "paymentQueue:didRevokeEntitlementsForProductIdentifiers:",
    ]
    /// The one required method.
    static let required = "paymentQueue(_:updatedTransactions:)"
    /// What the backend needs StoreKit to call: the guide's flow, and the
    /// revocations Apple says Family Sharing needs ("you do need to implement
    /// a new method in your transaction observer":
    /// https://developer.apple.com/documentation/storekit/supporting-family-sharing-in-your-app ;
    /// the method: https://developer.apple.com/documentation/storekit/skpaymenttransactionobserver/paymentqueue(_:didrevokeentitlementsforproductidentifiers:)).
    static let forwarded: Set<String> = [
        required, "paymentQueue(_:removedTransactions:)", "paymentQueueRestoreCompletedTransactionsFinished(_:)",
        "paymentQueue(_:restoreCompletedTransactionsFailedWithError:)", "paymentQueue(_:updatedDownloads:)",
        "paymentQueue(_:shouldAddStorePayment:for:)", "paymentQueue(_:didRevokeEntitlementsForProductIdentifiers:)",
        // Products and prices depend on the storefront, which "can change at any time"
        // (https://developer.apple.com/documentation/storekit/skstorefront):
        // https://developer.apple.com/documentation/storekit/skpaymenttransactionobserver/paymentqueuedidchangestorefront(_:)
        "paymentQueueDidChangeStorefront(_:)",
    ]

    /// The Swift names of the `func paymentQueue…` declarations in `source`:
    /// the base name, then each parameter's argument label.
    static func observerMethods(in source: String) -> [String] {
        var names: [String] = []
        var rest = Substring(source)
        while let found = rest.range(of: "func paymentQueue") {
            let afterFunc = rest[rest.index(found.lowerBound, offsetBy: 5)...]
            guard let open = afterFunc.firstIndex(of: "("), let close = afterFunc[open...].firstIndex(of: ")") else { break }
            let base = afterFunc[..<open]
            let labels = afterFunc[afterFunc.index(after: open)..<close].split(separator: ",").map { parameter in
                parameter.trimmingCharacters(in: .whitespaces).split(separator: " ").first.map(String.init) ?? ""
            }
            names.append("\(base)(\(labels.map { "\($0):" }.joined()))")
            rest = afterFunc[close...]
        }
        return names
    }

    @Test func everyObserverMethodIsOneAppleDocumentsAndTheRequiredOneIsThere() throws {
        let path = "\(PackageRoot.path)/Sources/Runtime/StorekeeperStoreKit/StoreKit1/AppleStoreKit1.swift"
        let source = try String(contentsOfFile: path, encoding: .utf8)
        let methods = Self.observerMethods(in: source)
        for method in methods {
            #expect(Self.documented[method] != nil, "\(method) is not a method of SKPaymentTransactionObserver: StoreKit would never call it")
        }
        #expect(methods.contains(Self.required))
        #expect(Set(methods) == Self.forwarded, "the observer forwards exactly what the backend handles: \(methods)")
    }

    @Test func theCheckCatchesAMisspeltOptionalMethod() {
        let misspelt = """
            public func paymentQueue(_ queue: SKPaymentQueue, updatedTransactions transactions: [SKPaymentTransaction]) {}
            public func paymentQueue(_ queue: SKPaymentQueue, removedTransaction transactions: [SKPaymentTransaction]) {}
            public func paymentQueueRestoreCompletedTransactionFinished(_ queue: SKPaymentQueue) {}
            """
        let methods = Self.observerMethods(in: misspelt)
        #expect(methods == ["paymentQueue(_:updatedTransactions:)", "paymentQueue(_:removedTransaction:)",
                            "paymentQueueRestoreCompletedTransactionFinished(_:)"])
        #expect(methods.filter { Self.documented[$0] == nil }.count == 2)
    }
}
