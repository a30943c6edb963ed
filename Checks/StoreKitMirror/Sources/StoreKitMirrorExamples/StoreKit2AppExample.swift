// The StoreKit 2 app example docs/storekit-backends.md shows: written with the StoreKit 2 backend.
import StoreKit
