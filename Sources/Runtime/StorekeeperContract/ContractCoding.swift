import Foundation

/// The JSON coders of the server contract (docs/server-contract.md), used by
/// both sides: the app's client and `storekeeper-server` write and read each
/// body with these, so that one cannot write what the other cannot read.
///
/// Foundation's coders rather than StorekeeperJSON's: the contract's dates
/// are seconds since 1970 with a fraction, which `JSONValue` cannot hold.
public enum ContractCoding {
    /// The encoded `value`: sorted keys and unescaped slashes, so that the same
    /// value always makes the same bytes; `pretty` adds line breaks and
    /// indentation (the record files a person may read).
    ///
    /// - Throws: ``ContractError`` when a value cannot be JSON (a date or
    ///   number that is not finite).
    public static func encode<Value: Encodable>(_ value: Value, pretty: Bool = false) throws(ContractError) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted]
                                          : [.sortedKeys, .withoutEscapingSlashes]
        do {
            return Array(try encoder.encode(value))
        } catch {
            throw ContractError("cannot be written as JSON: \(error)")
        }
    }

    /// `Value` decoded from `bytes`, or an error that names the member at
    /// fault (`records[2].purchaseDate: missing`) and what would be right.
    public static func decode<Value: Decodable>(_ type: Value.Type, from bytes: some Collection<UInt8>) throws(ContractError) -> Value {
        guard !bytes.isEmpty else { throw ContractError("empty, not JSON") }
        do {
            return try JSONDecoder().decode(type, from: Data(bytes))
        } catch let error as DecodingError {
            throw ContractError(explain(error))
        } catch let error as ContractError {
            // A type's own `init(from:)` may refuse with the contract's error (a team's
            // type over these coders): its words are already the right ones.
            throw error
        } catch {
            throw ContractError("not JSON: \(error)")
        }
    }

    /// What a decoding error means, naming the member at fault: the one
    /// explainer of the contract's coders, for the client's answers and the
    /// server's request bodies alike.
    public static func explain(_ error: DecodingError) -> String {
        switch error {
        case let .typeMismatch(type, context):
            let expected = name(of: type)
            if context.codingPath.isEmpty, expected == "an object" { return "not a JSON object" }
            return "\(place(context.codingPath)): expected \(expected)"
        case let .valueNotFound(type, context):
            return "\(place(context.codingPath)): expected \(name(of: type)), found null"
        case let .keyNotFound(key, context):
            return "\(place(context.codingPath + [key])): missing"
        case let .dataCorrupted(context):
            guard context.codingPath.isEmpty else {
                return "\(place(context.codingPath)): \(context.debugDescription)"
            }
            let detail = (context.underlyingError as? NSError)?.userInfo[NSDebugDescriptionErrorKey] as? String
            return "not JSON" + (detail.map { ": \($0)" } ?? "")
        @unknown default:
            return "\(error)"
        }
    }

    /// `records[2].purchaseDate`, or `the top level`.
    static func place(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return text.isEmpty ? "the top level" : text
    }

    private static func name(of type: Any.Type) -> String {
        switch type {
        case is Double.Type, is Float.Type: "a number"
        case is Int.Type: "an integer"
        case is String.Type: "a string"
        case is Bool.Type: "a boolean"
        default: String(describing: type).hasPrefix("Array") ? "an array" : "an object"
        }
    }
}
