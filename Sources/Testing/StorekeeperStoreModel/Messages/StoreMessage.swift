/// What Apple sends because of something that happened: to a device, or to the server.
public enum StoreMessage: Sendable, Hashable {
    /// What the device of an Apple ID receives from StoreKit 2.
    case transaction(DeviceTransaction)
    /// What the App Store POSTs to the server.
    case notification(ServerNotification)
}
