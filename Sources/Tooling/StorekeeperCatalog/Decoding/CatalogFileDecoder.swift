import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperYAML

/// What only the catalog file sets, and the includes of any file. Products,
/// declarations and rules go straight into the `CatalogAccumulator`.
struct DecodedFile {
    var name: Located<String>?
    var format = 1
    var app: App?
    var server: Server?
    /// A `server` was written but refused (its error is reported).
    var serverIsInvalid = false
    var refunds: Refunds?
    /// The `format` is one this version cannot read (reported): what the
    /// file lacks is then not reported, since another format may not need it.
    var formatIsUnsupported = false
    var defaults = Defaults()
    var includes: [Located<String>] = []
}

/// Decodes the top level of a catalog file or a fragment.
enum CatalogFileDecoder {
    static let catalogKeys = ["catalog", "format", "app", "server", "refunds", "features", "balances", "groups", "include", "defaults", "products", "rules"]
    static let fragmentKeys = ["products", "groups", "features", "balances", "rules", "include"]
    static let appKeys = ["bundle-id", "platforms", "minimum-os"]
    static let serverKeys = ["url", "identity"]
    static let refundsKeys = ["spent-balance"]
    static let groupKeys = ["name", "localizations"]
    static let defaultsKeys = ["delivery", "persistence", "restore", "family-shareable"]
    static let supportedFormats = [1]

    /// Decodes a catalog file (`fragmentDefaults` nil) or a fragment (with the
    /// catalog's defaults, which its products inherit).
    static func decode(
        _ root: YAMLNode, fragmentDefaults: Defaults?, streamed: ProductStream? = nil,
        into catalog: inout CatalogAccumulator, context: inout YAMLDecodingContext
    ) -> DecodedFile {
        var file = DecodedFile()
        let isFragment = fragmentDefaults != nil
        guard root.kind == .mapping else {
            let what = isFragment ? "a fragment" : "a catalog file"
            context.error(CatalogRuleID.wrongKind, "\(what) is a mapping of keys such as `products:`, not \(root.kind)", at: root)
            catalog.refuseAllDeclarations()
            return file
        }
        if let format = root.pairs.first(where: { $0.key.text == "format" })?.value, format.kind == .scalar, let text = format.text,
           PolicyFormat.isNamed(by: text) {
            // Read as a catalog, its every member would be an error, none of them the point.
            let misspelt = text == PolicyFormat.name ? "" : "; its format '\(text)' is misspelt: did you mean '\(PolicyFormat.name)'?"
            context.error(
                CatalogRuleID.unsupportedFormat,
                "this is a compiled policy (storekeeper compile's output), not a catalog: name the catalog it was compiled from; `storekeeper explain \(format.location.file)` reads a policy\(misspelt)",
                at: format)
            file.formatIsUnsupported = true
            return file
        }
        var fields: [String: YAMLNode.Pair] = [:]
        for pair in root.pairs {
            guard let key = pair.key.text else { continue }
            if isFragment, !fragmentKeys.contains(key) {
                if key == "catalog" {
                    context.error(CatalogRuleID.fragmentKey, "this included file is a catalog (it sets `catalog`); only fragments can be included, so remove `catalog` and the catalog-wide keys, or stop including it", at: pair.key)
                } else if catalogKeys.contains(key) {
                    context.error(CatalogRuleID.fragmentKey, "'\(key)' belongs in the catalog file; a fragment may hold only \(fragmentKeys.joined(separator: ", "))", at: pair.key)
                } else {
                    context.unknownKey(pair.key, value: pair.value, in: "a fragment", known: fragmentKeys)
                }
                continue
            }
            guard catalogKeys.contains(key) else {
                context.unknownKey(pair.key, value: pair.value, in: "a catalog", known: catalogKeys)
                continue
            }
            fields[key] = pair
        }

        if !isFragment {
            if let pair = fields["format"] {
                if let format = decodeFormat(pair.value, context: &context) { file.format = format } else { file.formatIsUnsupported = true }
            }
            if let pair = fields["catalog"] {
                file.name = decodeCatalogName(pair.value, context: &context)
            } else if !file.formatIsUnsupported {
                context.missing("catalog", in: root, of: "this catalog file", example: "rocket-racer")
            }
            if let pair = fields["app"] {
                file.app = decodeApp(pair.value, context: &context)
            } else if !file.formatIsUnsupported {
                context.missing("app", in: root, of: "this catalog", example: "{bundle-id: com.example.app}")
            }
            if let pair = fields["server"] {
                file.server = decodeServer(pair.value, context: &context)
                file.serverIsInvalid = file.server == nil
            }
            if let pair = fields["refunds"] { file.refunds = decodeRefunds(pair.value, context: &context) }
            if let pair = fields["defaults"] { file.defaults = decodeDefaults(pair.value, context: &context, references: &catalog.references) }
        }
        if let pair = fields["features"] {
            for feature in decodeSymbols(pair.value, "'features'", kind: .feature, into: &catalog, context: &context) {
                catalog.declare(feature: feature, context: &context)
            }
        }
        if let pair = fields["balances"] {
            for balance in decodeSymbols(pair.value, "'balances'", kind: .balance, into: &catalog, context: &context) {
                catalog.declare(balance: balance, context: &context)
            }
        }
        if let pair = fields["groups"] {
            for group in decodeGroups(pair.value, into: &catalog, context: &context) { catalog.declare(group: group, context: &context) }
        }
        if let pair = fields["include"] {
            file.includes = context.stringList(pair.value, "'include'", example: "fragments/coins.yaml") ?? []
        }
        if let pair = fields["products"], !context.expectSequence(pair.value, "'products'") {
            catalog.productsAreUnreadable = true
        } else if let pair = fields["products"] {
            let defaults = fragmentDefaults ?? file.defaults
            let items = pair.value.items
            if let streamed, !streamed.slots.isEmpty {
                // Decoded while parsing: register them, in file order with the items kept in the tree.
                catalog.adopt(streamed, defaults: defaults, keptItems: items, context: &context)
            } else {
                catalog.reserve(items.count)
                for item in items {
                    let decoded = ProductDecoder.decode(item, defaults: defaults, context: &context, references: &catalog.references)
                    catalog.add(decoded, context: &context)
                }
            }
        }
        if let pair = fields["rules"], context.expectSequence(pair.value, "'rules'") {
            for item in pair.value.items {
                if item.kind == .mapping, let nameNode = item["name"], let name = nameNode.text, !nameNode.isNull {
                    catalog.declare(ruleName: Located(name, at: nameNode.range), context: &context)
                }
                if let rule = RuleDecoder.decode(item, context: &context) { catalog.rules.append(rule) }
            }
        }
        return file
    }

    static func decodeCatalogName(_ node: YAMLNode, context: inout YAMLDecodingContext) -> Located<String>? {
        guard let name = context.string(node, "'catalog'", example: "rocket-racer") else { return nil }
        if let problem = NamePatterns.catalogName(name.value) {
            context.error(CatalogRuleID.invalidName, "the catalog name '\(name.value)' \(problem)", at: node)
            return nil
        }
        return name
    }

    /// The format version, or nil when this version cannot read it (reported).
    static func decodeFormat(_ node: YAMLNode, context: inout YAMLDecodingContext) -> Int? {
        guard let text = context.text(node, "'format'", example: "1") else { return nil }
        let versions = supportedFormats.map(String.init).joined(separator: ", ")
        guard let format = ScalarReading.smallWholeNumber(text), supportedFormats.contains(format) else {
            context.error(CatalogRuleID.unsupportedFormat, "format '\(text)' is not supported; this version of storekeeper reads format \(versions)", at: node)
            return nil
        }
        if node.scalarStyle != .plain {
            context.error(CatalogRuleID.wrongKind, "'format' is the text \"\(text)\" in quotes; write \(format) without quotes for a number", at: node)
        }
        return format
    }

    static func decodeApp(_ node: YAMLNode, context: inout YAMLDecodingContext) -> App? {
        guard context.expectMapping(node, "'app'") else { return nil }
        var bundleID: Located<String>?
        var platforms: [Located<Platform>] = []
        var minimumOS: Located<OSVersion>?
        var sawBundleID = false
        var ok = true
        for pair in node.pairs {
            switch pair.key.text {
            case "bundle-id":
                sawBundleID = true
                if let id = context.string(pair.value, "'bundle-id'", example: "com.example.app") {
                    if let problem = NamePatterns.bundleID(id.value) {
                        context.error(CatalogRuleID.invalidName, "the bundle id '\(id.value)' \(problem)", at: pair.value)
                    } else {
                        bundleID = id
                    }
                }
            case "platforms":
                guard context.expectSequence(pair.value, "'platforms'") else { ok = false; continue }
                var seen: [Platform: Located<Platform>] = [:]
                for item in pair.value.items {
                    guard let platform = context.enumeration(item, "platform", as: Platform.self) else { ok = false; continue }
                    if let first = seen[platform.value] {
                        context.error(CatalogRuleID.duplicateName, "'\(platform.value.rawValue)' is listed twice; remove this one", at: item,
                                      notes: [Diagnostic.Note("first listed here", at: first.location)])
                        continue
                    }
                    seen[platform.value] = platform
                    platforms.append(platform)
                }
                if pair.value.items.isEmpty {
                    context.error(CatalogRuleID.missingKey, "'platforms' is empty; list at least one of \(Platform.allCases.map(\.rawValue).joined(separator: ", "))", at: pair.value)
                    ok = false
                }
            case "minimum-os":
                minimumOS = decodeVersion(pair.value, context: &context)
                if minimumOS == nil { ok = false }
            default:
                context.unknownKey(pair.key, value: pair.value, in: "'app'", known: appKeys)
            }
        }
        if !sawBundleID { context.missing("bundle-id", in: node, of: "'app'", example: "com.example.app") }
        guard ok, let bundleID else { return nil }
        if platforms.isEmpty { platforms = [Located(.ios, at: node.range)] }
        return App(bundleID: bundleID, platforms: platforms, minimumOS: minimumOS, location: node.location)
    }

    static func decodeVersion(_ node: YAMLNode, context: inout YAMLDecodingContext) -> Located<OSVersion>? {
        guard let text = context.text(node, "'minimum-os'", example: "\"15.0\"") else { return nil }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let major = ScalarReading.smallWholeNumber(String(parts[0])),
              let minor = ScalarReading.smallWholeNumber(String(parts[1])), (1...99).contains(major), minor <= 99
        else {
            context.error(CatalogRuleID.invalidValue, "'\(text)' is not an OS version; write major.minor in quotes, like \"15.0\"", at: node)
            return nil
        }
        if node.scalarStyle == .plain {
            context.report(.warning, CatalogRuleID.unquotedVersion, "write the version in quotes, \"\(text)\": unquoted, other YAML tools read it as a number (and 15.10 as 15.1)", at: node)
        }
        return Located(OSVersion(major: major, minor: minor), at: node.range)
    }

    static func decodeServer(_ node: YAMLNode, context: inout YAMLDecodingContext) -> Server? {
        guard context.expectMapping(node, "'server'") else { return nil }
        var url: Located<String>?
        var identity: Located<ServerIdentity>?
        var sawURL = false
        var ok = true
        for pair in node.pairs {
            switch pair.key.text {
            case "url":
                sawURL = true
                url = decodeURL(pair.value, context: &context)
            case "identity":
                identity = context.enumeration(pair.value, "server identity")
                if identity == nil { ok = false }
            default:
                context.unknownKey(pair.key, value: pair.value, in: "'server'", known: serverKeys)
            }
        }
        if !sawURL { context.missing("url", in: node, of: "'server'", example: "https://store.example.com") }
        guard ok, let url else { return nil }
        return Server(url: url, identity: identity, location: node.location)
    }

    /// `refunds`: what an App Store refund does where the app's ledger has a
    /// choice (docs/format.md#refunds). Nil when it is not a mapping or its
    /// value cannot be read (reported); every key is optional.
    static func decodeRefunds(_ node: YAMLNode, context: inout YAMLDecodingContext) -> Refunds? {
        guard context.expectMapping(node, "'refunds'") else { return nil }
        var spentBalance: Located<RefundedSpendPolicy>?
        var ok = true
        for pair in node.pairs {
            switch pair.key.text {
            case "spent-balance":
                spentBalance = context.enumeration(pair.value, "'spent-balance' refund policy")
                if spentBalance == nil { ok = false }
            default:
                context.unknownKey(pair.key, value: pair.value, in: "'refunds'", known: refundsKeys)
            }
        }
        guard ok else { return nil }
        return Refunds(spentBalance: spentBalance, location: node.location)
    }

    /// A server URL by the runtime's rule (`ServerURL`, which the
    /// compiled-policy reader applies too): https, or http only on the local
    /// machine; no backslashes, user names, spaces or control characters.
    /// The JSON Schema's pattern (StorekeeperSchema's `ValuePatterns.serverURL`)
    /// says the same, and a test checks that they agree.
    static func decodeURL(_ node: YAMLNode, context: inout YAMLDecodingContext) -> Located<String>? {
        guard let url = context.string(node, "'url'", example: "https://store.example.com") else { return nil }
        do {
            _ = try ServerURL(parsing: url.value)
            return url
        } catch {
            context.error(CatalogRuleID.insecureURL, error.description, at: node)
            return nil
        }
    }

    /// Declared names; those refused (their error reported) are noted in
    /// `catalog`, so that their uses are not reported again as undeclared.
    static func decodeSymbols(
        _ node: YAMLNode, _ what: String, kind: ReferenceUse.Kind, into catalog: inout CatalogAccumulator, context: inout YAMLDecodingContext
    ) -> [Located<String>] {
        guard context.expectSequence(node, what) else {
            catalog.refuseAll(kind)
            return []
        }
        var names: [Located<String>] = []
        for item in node.items {
            if let name = ProductDecoder.decodeSymbol(item, kind: kind.rawValue, context: &context) {
                names.append(name)
            } else {
                catalog.refuse(kind, named: item.text)
            }
        }
        return names
    }

    static func decodeGroups(_ node: YAMLNode, into catalog: inout CatalogAccumulator, context: inout YAMLDecodingContext) -> [SubscriptionGroup] {
        guard context.expectMapping(node, "'groups'") else {
            catalog.refuseAll(.group)
            return []
        }
        var groups: [SubscriptionGroup] = []
        for pair in node.pairs {
            guard let id = ProductDecoder.decodeSymbol(pair.key, kind: "group", context: &context) else {
                catalog.refuse(.group, named: pair.key.text)
                continue
            }
            guard context.expectMapping(pair.value, "the group '\(id.value)'") else {
                catalog.refuse(.group, named: id.value)
                continue
            }
            var name: Located<String>?
            var localizations: [GroupLocalization] = []
            var sawName = false
            for field in pair.value.pairs {
                switch field.key.text {
                case "name":
                    sawName = true
                    name = context.string(field.value, "'name'", example: "Rocket Racer Pro", nonEmpty: true)
                case "localizations":
                    localizations = decodeGroupLocalizations(field.value, context: &context)
                default:
                    context.unknownKey(field.key, value: field.value, in: "a group", known: groupKeys)
                }
            }
            if !sawName { context.missing("name", in: pair.value, of: "the group '\(id.value)'", example: "Rocket Racer Pro") }
            if let name {
                groups.append(SubscriptionGroup(id: id, name: name, localizations: localizations))
            } else {
                catalog.refuse(.group, named: id.value)
            }
        }
        return groups
    }

    /// `locale -> {name}`: the group's display name in each locale.
    static func decodeGroupLocalizations(_ node: YAMLNode, context: inout YAMLDecodingContext) -> [GroupLocalization] {
        guard context.expectMapping(node, "a group's 'localizations'") else { return [] }
        var result: [GroupLocalization] = []
        for pair in node.pairs {
            guard let locale = ProductDecoder.decodeLocale(pair.key, context: &context),
                  context.expectMapping(pair.value, "the '\(locale.value)' localization")
            else { continue }
            var name: Located<String>?
            for field in pair.value.pairs {
                if field.key.text == "name" {
                    name = context.string(field.value, "'name'", example: "Rocket Racer Pro", nonEmpty: true)
                } else {
                    context.unknownKey(field.key, value: field.value, in: "a group localization", known: ["name"])
                }
            }
            if let name {
                result.append(GroupLocalization(locale: locale, name: name))
            } else if pair.value["name"] == nil {
                context.missing("name", in: pair.value, of: "the '\(locale.value)' localization", example: "Rocket Racer Pro")
            }
        }
        return result
    }

    static func decodeDefaults(_ node: YAMLNode, context: inout YAMLDecodingContext, references: inout [ReferenceUse]) -> Defaults {
        var defaults = Defaults()
        guard context.expectMapping(node, "'defaults'") else {
            // Refused whole (reported): any key could have been meant, so no product is told it lacks one.
            defaults.written = Set(defaultsKeys)
            return defaults
        }
        for pair in node.pairs {
            if let key = pair.key.text {
                defaults.written.insert(key)
                // A misspelt default (`delivry:`) is reported once, here, not again at every product.
                if let meant = Suggestion.nearest(to: key, in: defaultsKeys) { defaults.written.insert(meant) }
            }
            switch pair.key.text {
            case "delivery": defaults.delivery = DeliveryDecoder.decode(pair.value, context: &context, references: &references)
            case "persistence": defaults.persistence = PersistenceDecoder.decodePersistence(pair.value, context: &context)
            case "restore": defaults.restore = PersistenceDecoder.decodeRestore(pair.value, context: &context)
            case "family-shareable": defaults.familyShareable = context.bool(pair.value, "'family-shareable'")
            default: context.unknownKey(pair.key, value: pair.value, in: "'defaults'", known: defaultsKeys)
            }
        }
        return defaults
    }
}
