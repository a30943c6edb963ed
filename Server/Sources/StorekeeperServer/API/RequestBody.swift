import Foundation
import Hummingbird

/// A request's JSON body, read up to the configured limit (413 beyond it) and
/// decoded with Foundation's `JSONDecoder` (the contract's numbers may have a
/// fraction, which StorekeeperJSON's parser refuses), its failures turned into
/// 400 answers that name the member at fault and what would be right.
enum RequestBody {
    /// `T` decoded from `request`'s body.
    static func decode<T: Decodable>(_ type: T.Type, from request: Request, context: ServerRequestContext, shape: String) async throws -> T {
        var request = request
        let buffer = try await request.collectBody(upTo: context.maxUploadSize)
        do {
            return try JSONDecoder().decode(T.self, from: Data(buffer.readableBytesView))
        } catch let error as DecodingError {
            throw APIError.badRequest("\(explain(error)); the body must be \(shape)")
        }
    }

    /// What is wrong, naming the member.
    static func explain(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.isEmpty ? "the body" : keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case let .keyNotFound(key, context):
            return "\(path(context.codingPath + [key])): missing"
        case let .valueNotFound(type, context):
            return "\(path(context.codingPath)): null where \(describe(type)) belongs"
        case let .typeMismatch(type, context):
            return "\(path(context.codingPath)): not \(describe(type))"
        case let .dataCorrupted(context):
            if context.codingPath.isEmpty {
                let detail = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
                return "the body is not JSON" + (detail.map { " (\($0))" } ?? "")
            }
            return "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "the body cannot be read"
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type: "an integer"
        case is Double.Type: "a number"
        case is Bool.Type: "true or false"
        default: "a JSON object"
        }
    }
}
