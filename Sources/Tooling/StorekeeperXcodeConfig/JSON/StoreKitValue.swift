import StorekeeperCore
import StorekeeperJSON
/// A JSON value as a StoreKit configuration file holds it.
///
/// The cases of `JSONValue`, plus ``number(_:)`` for numbers with a fraction
/// or an exponent, kept as written: Xcode writes some (a synced file's
/// `_lastSynchronizedDate`, `767105909.83790004`), and a file written back
/// must hold them unchanged. Objects keep their members in the order given;
/// ``StoreKitWriter`` sorts them as Xcode does.
public indirect enum StoreKitValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A whole number.
    case integer(Int)
    /// A number with a fraction or an exponent, exactly as written.
    case number(String)
    /// A string.
    case string(String)
    /// An array.
    case array([StoreKitValue])
    /// An object, its members in order; keys are unique.
    case object([Member])

    /// One member of an object.
    public struct Member: Sendable, Hashable {
        /// The key.
        public var key: String
        /// The value.
        public var value: StoreKitValue

        /// Creates a member.
        public init(_ key: String, _ value: StoreKitValue) {
            self.key = key
            self.value = value
        }
    }

    /// An object from key-value pairs, in the order given.
    public static func object(_ pairs: KeyValuePairs<String, StoreKitValue>) -> StoreKitValue {
        .object(pairs.map { Member($0.key, $0.value) })
    }

    /// The value of a member, when this is an object that has it.
    public subscript(key: String) -> StoreKitValue? {
        get {
            guard case .object(let members) = self else { return nil }
            return members.first { $0.key == key }?.value
        }
        set {
            guard case .object(var members) = self else { return }
            if let index = members.firstIndex(where: { $0.key == key }) {
                if let newValue { members[index].value = newValue } else { members.remove(at: index) }
            } else if let newValue {
                members.append(Member(key, newValue))
            }
            self = .object(members)
        }
    }

    /// Whether this object has a member named `key`.
    public func has(_ key: String) -> Bool { self[key] != nil }

    /// The elements, when this is an array.
    public var elements: [StoreKitValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The text, when this is a string.
    public var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The same value with every object's members sorted by key, as
    /// ``StoreKitWriter`` orders them: for comparing trees whatever their order.
    public var sorted: StoreKitValue {
        switch self {
        case .array(let elements): .array(elements.map(\.sorted))
        case .object(let members):
            .object(members.map { Member($0.key, $0.value.sorted) }.sorted { StoreKitWriter.orders($0.key, before: $1.key) })
        default: self
        }
    }
}
