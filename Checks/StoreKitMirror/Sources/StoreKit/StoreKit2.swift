// The part of StoreKit 2 that Sources/Runtime/StorekeeperStoreKit/StoreKit2 uses,
// declared as Apple documents it (each declaration cites its page). Bodies are
// placeholders: this module is only compiled against, never run.
import Foundation
