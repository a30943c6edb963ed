public import Foundation

/// The part of StoreKit's `SKDownload` (Apple-hosted content) that
/// ``StoreKit1Backend`` uses. A class protocol: StoreKit reports progress on
/// the same objects the backend started, and the backend finds a download's
/// transaction by the object's identity.
public protocol StoreKit1Download: AnyObject {
    /// `state`.
    var downloadPhase: StoreKit1DownloadState { get }
    /// `progress`: 0 to 1, for the interface only (never to decide whether it is done).
    var downloadProgress: Float { get }
    /// `timeRemaining`, in seconds; nil when StoreKit does not know.
    var downloadTimeRemaining: Double? { get }
    /// `contentURL`: where the content is once `finished`.
    var downloadContentURL: URL? { get }
    /// `error`: why it failed.
    var downloadError: StoreKit1Error? { get }
    /// `contentIdentifier`: the content's identifier in App Store Connect.
    var downloadContentIdentifier: String { get }
}

/// `SKDownloadState`.
public enum StoreKit1DownloadState: Int, Sendable, Hashable, CaseIterable {
    /// `.waiting` (0): not started yet.
    case waiting = 0
    /// `.active` (1): downloading.
    case active = 1
    /// `.paused` (2): paused (by the app, on the user's request).
    case paused = 2
    /// `.finished` (3): on the device, at `contentURL`.
    case finished = 3
    /// `.failed` (4): stopped by an error; can be started again.
    case failed = 4
    /// `.cancelled` (5): cancelled by the app.
    case cancelled = 5
}
