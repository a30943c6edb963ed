import Hummingbird
import StorekeeperContract

/// A request's JSON body, read up to the configured limit (413 beyond it) and
/// decoded with the contract's coders (StorekeeperContract's
/// ``ContractCoding``, the same the app's client writes with), its failures
/// turned into 400 answers that name the member at fault and what would be right.
enum RequestBody {
    /// `T` decoded from `request`'s body.
    static func decode<T: Decodable>(_ type: T.Type, from request: Request, context: ServerRequestContext, shape: String) async throws -> T {
        var request = request
        let buffer = try await request.collectBody(upTo: context.maxUploadSize)
        do throws(ContractError) {
            return try ContractCoding.decode(T.self, from: buffer.readableBytesView)
        } catch {
            throw APIError.badRequest("\(error); the body must be \(shape)")
        }
    }
}
