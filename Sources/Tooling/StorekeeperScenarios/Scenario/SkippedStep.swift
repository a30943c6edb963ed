import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperSimulatedStore
import StorekeeperYAML

/// An item of `steps` that gave no action (its problems are reported), and
/// what can still be told of it: checking the steps after it against the
/// catalog and the app's life must report nothing that only its absence
/// causes (a name it gives, a launch it makes).
struct SkippedStep: Sendable, Hashable {
    /// Where the item is.
    var location: SourceLocation
    /// The one action the item names (`buy` of `buy: [...]`); nil when it
    /// names none (a misspelt action may be any) or several.
    var action: String?
    /// The text of an `as` in it: later references to that name are not unknown.
    var name: Located<String>?

    /// What `item` tells of itself.
    init(_ item: YAMLNode) {
        location = item.location
        var named: [String] = []
        var places: [YAMLNode] = []
        switch item.kind {
        case .scalar:
            named = item.text.map { [$0] } ?? []
        case .mapping:
            named = item.pairs.compactMap(\.key.text)
            // `as` inside the action's mapping, or beside the action.
            places = [item] + item.pairs.map(\.value).filter { $0.kind == .mapping }
        case .sequence:
            break
        }
        let actions = named.filter(ScenarioActionDecoder.names.contains)
        action = actions.count == 1 ? actions.first : nil
        name = places.lazy.compactMap { place in
            place.pairs.first { $0.key.text == "as" }.flatMap { ScenarioActionDecoder.writtenText($0.value) }
        }.first
    }
}
