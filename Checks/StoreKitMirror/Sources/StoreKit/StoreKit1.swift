// The part of the original StoreKit (SKPaymentQueue and its peers) that
// Sources/Runtime/StorekeeperStoreKit/StoreKit1 uses: written by the StoreKit 1 backend.
import Foundation
