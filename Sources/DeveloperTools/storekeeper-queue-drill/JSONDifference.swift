import Foundation

/// The first place where two JSON documents differ, as a path and the two
/// values there: what the supervisor prints when the crashed run's report
/// is not the reference's.
enum JSONDifference {
    /// The first difference between `a` and `b` (JSON bytes), or nil when they hold the same value.
    static func first(_ a: Data, _ b: Data) -> String? {
        guard let left = try? JSONSerialization.jsonObject(with: a, options: [.fragmentsAllowed]),
              let right = try? JSONSerialization.jsonObject(with: b, options: [.fragmentsAllowed])
        else { return a == b ? nil : "the documents are not both JSON" }
        return first(left, right, at: "$")
    }

    private static func first(_ a: Any, _ b: Any, at path: String) -> String? {
        switch (a, b) {
        case let (a as [String: Any], b as [String: Any]):
            for key in Set(a.keys).union(b.keys).sorted() {
                switch (a[key], b[key]) {
                case let (x?, y?):
                    if let difference = first(x, y, at: "\(path).\(key)") { return difference }
                case (_?, nil):
                    return "\(path).\(key): only in the reference: \(render(a[key]))"
                case (nil, _?):
                    return "\(path).\(key): only in the final report: \(render(b[key]))"
                case (nil, nil):
                    continue
                }
            }
            return nil
        case let (a as [Any], b as [Any]):
            for index in 0..<min(a.count, b.count) {
                if let difference = first(a[index], b[index], at: "\(path)[\(index)]") { return difference }
            }
            if a.count != b.count {
                let extra = a.count > b.count ? "the reference has \(render(a[b.count]))" : "the final report has \(render(b[a.count]))"
                return "\(path): \(a.count) items in the reference, \(b.count) in the final report; at [\(min(a.count, b.count))] \(extra)"
            }
            return nil
        default:
            let x = render(a)
            let y = render(b)
            return x == y ? nil : "\(path): reference \(x), final \(y)"
        }
    }

    private static func render(_ value: Any?) -> String {
        guard let value else { return "nothing" }
        guard JSONSerialization.isValidJSONObject([value]),
              let data = try? JSONSerialization.data(withJSONObject: [value], options: [.sortedKeys])
        else { return "\(value)" }
        // Wrapped in an array so that scalars serialize too; unwrapped for reading.
        return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
    }
}
