import Hummingbird
import StorekeeperContract
import StorekeeperServerStorage
import StorekeeperVerification

extension ServerRoutes {
    struct OperatorTransaction: Encodable {
        var transaction: String
        var user: String
        var originalTransaction: String
        var product: String
        var environment: String
        var quantity: Int
        var purchaseDate: Double
        var expirationDate: Double?
        var revocationDate: Double?
        var signedDate: Double

        init(_ stored: StoredTransaction) {
            transaction = stored.transactionID
            user = stored.user
            originalTransaction = stored.originalTransactionID
            product = stored.productID
            environment = stored.environment
            quantity = stored.quantity
            purchaseDate = stored.purchaseDate
            expirationDate = stored.expirationDate
            revocationDate = stored.revocationDate
            signedDate = stored.signedDate
        }
    }

    /// What the App Store last said of a subscription the user holds (its state is derived when
    /// entitlements are read, from this and its current period).
    struct OperatorSubscription: Encodable {
        var originalTransaction: String
        var status: Int?
        var statusSignedDate: Double?
        var gracePeriodExpiresDate: Double?
        var renewalSignedDate: Double?
    }

    struct OperatorUser: Encodable {
        var user: String
        var appAccountToken: String
        var transactions: [OperatorTransaction]
        var subscriptions: [OperatorSubscription]
        /// Each balance's net (below zero when owed), per App Store environment the server accepts.
        var balances: [String: [String: Int]]
        var records: [RecordObject]
    }

    struct OperatorNotification: Encodable {
        var notificationUUID: String
        var notificationType: String
        var subtype: String?
        var environment: String
        var receivedAt: Double
        var processedAt: Double?
    }

    struct OperatorConsumptionRequest: Encodable {
        var notificationUUID: String
        var transaction: String
        var user: String?
        var receivedAt: Double
    }

    /// `GET /v1/operator/users/{user}`: the user's account, transactions, subscriptions, balances and records.
    @Sendable func operatorUser(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let user = try PathSegment.decode(context.parameters.get("user")?[...] ?? "", what: "user id")
        guard let account = try await storage.account(user: user) else { throw APIError(.notFound, .noSuchUser, "no user '\(user)'") }
        async let transactions = storage.transactions(of: user)
        async let subscriptions = storage.renewals(of: user)
        async let records = storage.records(of: user)
        var balances: [String: [String: Int]] = [:]
        for environment in configuration.verifiers.environments.map(\.rawValue) {
            balances[environment] = try await storage.balances(of: user, environment: environment)
        }
        return try await context.answer(
            to: request,
            OperatorUser(
                user: account.user, appAccountToken: account.appAccountToken,
                transactions: transactions.map(OperatorTransaction.init),
                subscriptions: subscriptions.map {
                    OperatorSubscription(
                        originalTransaction: $0.originalTransactionID, status: $0.status, statusSignedDate: $0.statusSignedDate,
                        gracePeriodExpiresDate: $0.gracePeriodExpiresDate, renewalSignedDate: $0.renewalSignedDate)
                },
                balances: balances, records: records.map { RecordObject($0, user: user) }))
    }

    /// `GET /v1/operator/transactions/{id}`: a transaction, whoever it belongs to.
    @Sendable func operatorTransaction(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let id = try PathSegment.decode(context.parameters.get("transactionID")?[...] ?? "", what: "transaction id")
        guard let stored = try await storage.lookUpTransaction(id) else {
            throw APIError(.notFound, .noSuchTransaction, "no transaction '\(id)'")
        }
        return try context.answer(to: request, OperatorTransaction(stored))
    }

    /// `GET /v1/operator/notifications?limit=N`: the newest notifications, N from 1 to 500 (100 by default).
    @Sendable func operatorNotifications(_ request: Request, context: ServerRequestContext) async throws -> Response {
        var limit = 100
        if let text = request.uri.queryParameters["limit"] {
            guard let number = Int(text), (1...500).contains(number) else {
                throw APIError.badRequest("limit: '\(text)' is not an integer from 1 to 500")
            }
            limit = number
        }
        struct List: Encodable { var notifications: [OperatorNotification] }
        let notifications = try await storage.notifications(limit: limit).map {
            OperatorNotification(
                notificationUUID: $0.notificationUUID, notificationType: $0.notificationType, subtype: $0.subtype,
                environment: $0.environment, receivedAt: $0.receivedAt, processedAt: $0.processedAt)
        }
        return try context.answer(to: request, List(notifications: notifications))
    }

    /// `GET /v1/operator/consumption-requests`: the consumption requests kept, oldest first.
    @Sendable func operatorConsumptionRequests(_ request: Request, context: ServerRequestContext) async throws -> Response {
        struct List: Encodable { var consumptionRequests: [OperatorConsumptionRequest] }
        let requests = try await storage.consumptionRequests().map {
            OperatorConsumptionRequest(notificationUUID: $0.notificationUUID, transaction: $0.transactionID, user: $0.user, receivedAt: $0.receivedAt)
        }
        return try context.answer(to: request, List(consumptionRequests: requests))
    }
}

extension ServerRoutes {
    /// The operator's routes, under `/v1/operator` behind the operator key.
    var operatorRoutes: RouteCollection<ServerRequestContext> {
        let routes = RouteCollection(context: ServerRequestContext.self)
        routes.get("users/:user", use: operatorUser)
        routes.get("transactions/:transactionID", use: operatorTransaction)
        routes.get("notifications", use: operatorNotifications)
        routes.get("consumption-requests", use: operatorConsumptionRequests)
        return routes
    }
}
