/// The statuses `verifyReceipt` answers, and what each means, as Apple's
/// documentation of `status` (responseBody) gives them:
/// https://developer.apple.com/documentation/appstorereceipts/status
enum ReceiptStatus {
    /// The receipt is valid.
    static let valid = 0
    /// A sandbox receipt sent to production: send it to the sandbox.
    static let sandboxReceiptSentToProduction = 21007
    /// A production receipt sent to the sandbox: send it to production.
    static let productionReceiptSentToSandbox = 21008

    /// Statuses Apple says to try again.
    static func isTransient(_ status: Int) -> Bool {
        // 21002, 21005, 21009 and 21100-21199: https://developer.apple.com/documentation/appstorereceipts/status
        status == 21002 || status == 21005 || status == 21009 || (21100...21199).contains(status)
    }

    /// Statuses that blame the request the server made, not the receipt: sending the receipt again
    /// gets the same answer until the operator fixes the server, and the receipt may well be valid.
    static func isServerMisconfiguration(_ status: Int) -> Bool {
        // 21000: the request was not an HTTP POST (Apple's older wording: the App Store could not read the
        // JSON object sent); 21004: the shared secret does not match the account's.
        // https://developer.apple.com/documentation/appstorereceipts/status
        status == 21000 || status == 21004
    }

    /// Apple's meaning of a status.
    static func meaning(of status: Int) -> String {
        // Each as https://developer.apple.com/documentation/appstorereceipts/status gives it.
        switch status {
        case 0: "the receipt is valid"
        case 21000: "the request to the App Store was not made using the HTTP POST method"
        case 21001: "the App Store no longer sends this status (21001)"
        case 21002: "the data in the receipt-data property is malformed, or the service had a temporary issue; try again"
        case 21003: "the App Store could not authenticate the receipt"
        case 21004: "the shared secret (password) does not match the shared secret on file for the account"
        case 21005: "the receipt server was temporarily unable to provide the receipt; try again"
        case 21006: "the receipt is valid, but the subscription has expired (an iOS 6-style transaction receipt)"
        case 21007: "the receipt is from the sandbox, but it was sent to the production environment"
        case 21008: "the receipt is from production, but it was sent to the sandbox environment"
        case 21009: "internal data access error; try again later"
        case 21010: "the App Store cannot find the user account, or it was deleted"
        case 21100...21199: "internal data access error (\(status)); try again later"
        default: "a status Apple does not document (\(status))"
        }
    }
}
