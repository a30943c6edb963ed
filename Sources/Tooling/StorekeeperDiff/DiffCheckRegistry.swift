import StorekeeperCore
import StorekeeperDiagnostics

extension DiffCheck {
    /// Every check, by id: the CLI, the docs and the generic tests all read this list.
    public static let all: [DiffCheck] = [
        balanceRemoved,
        bundleID,
        consumableRemoved,
        contentSource,
        contentStorage,
        deliveryModel,
        durationShortened,
        familySharing,
        featureRemoved,
        groupRemoved,
        persistence,
        price,
        productRemoved,
        productType,
        recordKind,
        restore,
        serverIdentity,
        subscriptionGroup,
        subscriptionLevel,
        subscriptionPeriod,
        unlockDropped,
    ].sorted { $0.id < $1.id }
}
