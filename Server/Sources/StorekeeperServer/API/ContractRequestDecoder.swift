public import Hummingbird
import StorekeeperContract

/// The server contract's coders (StorekeeperContract's `ContractCoding`, the
/// ones the app's client writes with) as Hummingbird's request decoder, on
/// ``ServerRequestContext``: `request.decode(as:context:)` reads a body up to
/// the configured limit (413 beyond it) and refuses one that is not the
/// document's with 400, naming the member at fault and the shape the body
/// must have.
public struct ContractRequestDecoder: RequestDecoder {
    /// The decoder.
    public init() {}

    /// `T` decoded from `request`'s body.
    public func decode<T: Decodable>(_ type: T.Type, from request: Request, context: some RequestContext) async throws -> T {
        var request = request
        let buffer = try await request.collectBody(upTo: context.maxUploadSize)
        do throws(ContractError) {
            return try ContractCoding.decode(T.self, from: buffer.readableBytesView)
        } catch {
            let shape = (T.self as? any ContractRequestBody.Type)?.shape
            throw APIError.badRequest(shape.map { "\(error); the body must be \($0)" } ?? error.description)
        }
    }
}
