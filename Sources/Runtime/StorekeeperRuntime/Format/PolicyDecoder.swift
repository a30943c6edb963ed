public import StorekeeperCore
public import StorekeeperJSON

/// Reads a compiled policy (`PolicyEncoder`'s JSON) back, without YAML or
/// the catalog, resolving each step to a registered plugin.
///
/// Everything is checked, since the file may have been edited or written by
/// another version: the size (at most ``maxSize``), the format and version,
/// every name and number (declared names and each product's grants once),
/// the server URL (by `ServerURL`'s rule, as in the catalog), every plan
/// number and step name, and the plans' invariants (a `purchased`,
/// `restored` or `failed` plan finishes, nothing built in runs after
/// `finish`, a step's plugin can run for the product). Errors say where, as
/// a path into the document, or the line and column of a JSON error.
public struct PolicyDecoder: Sendable {
    /// The plugins steps resolve to: register an app's own steps before loading.
    public var plugins: PluginRegistry
    /// The largest document read, in bytes.
    public var maxSize: Int
    /// Whether a step with no registered plugin is declared (as
    /// `DeclaredStep`, which cannot run) rather than refused: for tools that
    /// only read a policy, like `storekeeper explain`.
    package var declaresUnknownSteps: Bool

    /// A decoder with these plugins (the built-in ones by default), reading
    /// policies of at most `maxSize` bytes (`PolicyFormat.maxSize`, which
    /// `PolicyEncoder` also writes within).
    public init(plugins: PluginRegistry = PluginRegistry(), maxSize: Int = PolicyFormat.maxSize, declaresUnknownSteps: Bool = false) {
        self.plugins = plugins
        self.maxSize = maxSize
        self.declaresUnknownSteps = declaresUnknownSteps
    }

    /// Reads a policy from JSON text.
    public func decode(_ text: String) throws(PolicyLoadError) -> CompiledPolicy {
        try decode(Array(text.utf8))
    }

    /// Reads a policy from JSON bytes.
    public func decode(_ bytes: [UInt8]) throws(PolicyLoadError) -> CompiledPolicy {
        try decode(value: parse(bytes))
    }

    /// Parses a policy's JSON, without reading it as a policy yet.
    ///
    /// - Throws: A `PolicyLoadError` at the JSON error's `line:column`, or
    ///   one that says the document is over ``maxSize`` and what to do.
    public func parse(_ bytes: [UInt8]) throws(PolicyLoadError) -> JSONValue {
        guard bytes.count <= maxSize else { throw tooLarge(size: bytes.count) }
        do {
            // Depth: the format nests at most five levels.
            return try JSONParser(maxDepth: 16, maxSize: maxSize).parse(bytes)
        } catch {
            throw PolicyLoadError(line: error.line, column: error.column, message: error.message)
        }
    }

    /// Reads a policy from a parsed JSON document.
    public func decode(value: JSONValue) throws(PolicyLoadError) -> CompiledPolicy {
        var decoder = self
        if declaresUnknownSteps { try decoder.declareSteps(in: value) }
        return try decoder.read(JSONField(value: value, path: ""))
    }

    /// The parsed document, when `bytes` are a compiled policy by
    /// `PolicyRecognition`; nil for a catalog (YAML, flow style or not, or
    /// JSON), which callers read as one.
    ///
    /// - Throws: The policy's JSON error, at its line and column: a damaged
    ///   policy is still a policy, never read as a catalog.
    public func compiledPolicy(in bytes: [UInt8]) throws(PolicyLoadError) -> JSONValue? {
        guard PolicyRecognition.isCompiledPolicy(bytes) else { return nil }
        return try parse(bytes)
    }

    /// The error for a compiled policy of `size` bytes, over ``maxSize``.
    public func tooLarge(size: Int) -> PolicyLoadError {
        PolicyLoadError(path: "", message: PolicySizeError(size: size, limit: maxSize).description)
    }

    /// Declares every step name the plans use that has no plugin.
    private mutating func declareSteps(in value: JSONValue) throws(PolicyLoadError) {
        guard case .object(let members) = value, let plans = members.first(where: { $0.key == "plans" })?.value,
              case .array(let list) = plans else { return }
        var names: [String] = []
        var seen = Set<String>()
        for plan in list {
            guard case .object(let fields) = plan, case .array(let steps)? = fields.first(where: { $0.key == "steps" })?.value else { continue }
            for step in steps {
                guard case .object(let stepFields) = step, case .string(let name)? = stepFields.first(where: { $0.key == "step" })?.value,
                      plugins.step(named: name) == nil, seen.insert(name).inserted else { continue }
                names.append(name)
            }
        }
        do {
            try plugins.declare(names)
        } catch {
            throw PolicyLoadError(path: "plans", message: error.description)
        }
    }

    /// Whether two values are equal with objects' members in any order (a
    /// policy passed through `jq -S` is the same policy); the parser has
    /// already refused duplicate keys.
    static func same(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case let (.array(a), .array(b)):
            return a.count == b.count && zip(a, b).allSatisfy { same($0, $1) }
        case let (.object(a), .object(b)):
            guard a.count == b.count else { return false }
            let members = Dictionary(b, uniquingKeysWith: { first, _ in first })
            return a.allSatisfy { member in members[member.key].map { same(member.value, $0) } ?? false }
        default:
            return lhs == rhs
        }
    }

    /// What each older version's files lack, for the error that refuses one:
    /// compiling again is the fix, and this says why it is needed.
    private static let missingFromOlderVersions: [Int: String] = [
        1: "the `verification-failed` store error's plans and `refunds`",
        2: "`refunds` (what an App Store refund takes back of a balance already spent)",
    ]

    private static let topLevel: Set<String> = ["format", "version", "catalog", "files", "server", "refunds", "features", "balances", "situations", "rules", "plans", "products"]
    private static let productMembers: Set<String> = [
        "id", "type", "delivery", "unlocks", "grants", "content", "persistence", "record", "restore", "restore-trigger",
        "restore-selection", "max-quantity", "family-shareable", "subscription", "duration", "offers", "plans",
    ]

    private func read(_ root: JSONField) throws(PolicyLoadError) -> CompiledPolicy {
        // The format and version first: a newer file gets one clear error, not a list of unknown members.
        guard case .object(let members) = root.value else { throw root.fail("expected a compiled policy (a JSON object), found \(JSONField.kind(root.value))") }
        let format = members.first { $0.key == "format" }.map { JSONField(value: $0.value, path: "format") }
        let formatName = try? format?.string()
        guard formatName == PolicyFormat.name else {
            let expected = "\"format\": \"\(PolicyFormat.name)\" (write one with `storekeeper compile`)"
            guard let format else { throw PolicyLoadError(path: "format", message: "missing: this is not a compiled policy without \(expected)") }
            if let formatName, PolicyFormat.isNamed(by: formatName) {
                throw format.fail("\"\(formatName)\" is not a format this version reads; did you mean \"\(PolicyFormat.name)\"?")
            }
            throw format.fail("this is not a compiled policy: expected \(expected)")
        }
        let version = members.first { $0.key == "version" }.map { JSONField(value: $0.value, path: "version") }
        guard let version, case .integer(let number) = version.value else {
            throw PolicyLoadError(path: "version", message: "missing or not a number; expected \(CompiledPolicy.formatVersion)")
        }
        guard number == CompiledPolicy.formatVersion else {
            let hint = number > CompiledPolicy.formatVersion
                ? "a newer storekeeper wrote it"
                : "an older storekeeper wrote it" + (Self.missingFromOlderVersions[number].map { ", without \($0)" } ?? "")
            throw version.fail("format version \(number) cannot be read (\(hint)); this version reads \(CompiledPolicy.formatVersion): compile the catalog again")
        }
        let top = try root.object(allowed: Self.topLevel)
        let catalog = try top.required("catalog", in: "").string()
        let files = try top.required("files", in: "").array().map { field throws(PolicyLoadError) in try field.string() }
        let serverField = try top.required("server", in: "")
        let server = serverField.isNull ? nil : try Self.serverURL(serverField)
        let refunds = try top.required("refunds", in: "").object(allowed: ["spent-balance"])
        let refundedSpendPolicy = try refunds.required("spent-balance", in: "refunds").enumeration(RefundedSpendPolicy.self)
        let features = try Self.distinctNames(top.required("features", in: ""), kind: "feature")
        let balances = try Self.distinctNames(top.required("balances", in: ""), kind: "balance")

        let situations = try top.required("situations", in: "").array()
        let expected = PlanSituation.all.map(PolicyEncoder.situation)
        guard situations.count == expected.count, zip(situations, expected).allSatisfy({ Self.same($0.value, $1) }) else {
            throw PolicyLoadError(path: "situations", message: "the situations differ from this version's \(expected.count) (each state, then failed per store error, in order): compile the catalog again")
        }

        let fileRange = 0...max(0, files.count - 1)
        func position(_ fields: [String: JSONField], in path: String) throws(PolicyLoadError) -> SourcePosition {
            let file = try fields.required("file", in: path)
            guard !files.isEmpty else { throw file.fail("names a file, but 'files' is empty") }
            return SourcePosition(file: files[try file.integer(in: fileRange)],
                                  line: try fields.required("line", in: path).integer(in: 1...Int(Int32.max)),
                                  column: try fields.required("column", in: path).integer(in: 1...Int(Int32.max)))
        }

        var rules: [RuleReference] = []
        for field in try top.required("rules", in: "").array() {
            let fields = try field.object(allowed: ["name", "file", "line", "column"])
            rules.append(RuleReference(name: try fields.required("name", in: field.path).string(), position: try position(fields, in: field.path)))
        }
        let ruleRange = 0...max(0, rules.count - 1)

        var plans: [Plan] = []
        for field in try top.required("plans", in: "").array() {
            let fields = try field.object(allowed: ["rule", "steps"])
            let ruleField = try fields.required("rule", in: field.path)
            let rule: Int? = ruleField.isNull ? nil : try checkedRule(ruleField, count: rules.count, range: ruleRange)
            var steps: [ResolvedStep] = []
            let stepFields = try fields.required("steps", in: field.path).array()
            guard stepFields.count <= PlanInvariants.maxSteps else {
                throw PolicyLoadError(path: "\(field.path).steps", message: "a plan has at most \(PlanInvariants.maxSteps) steps; this one has \(stepFields.count)")
            }
            for stepField in stepFields {
                let step = try stepField.object(allowed: ["step", "rule", "file", "line", "column"])
                let nameField = try step.required("step", in: stepField.path)
                let name = try nameField.string()
                guard let plugin = plugins.step(named: name) else {
                    let hint = plugins.stepLibrary.nearest(to: name).map { "did you mean '\($0)'? or " } ?? ""
                    throw nameField.fail("no plugin is registered for the step '\(name)'; \(hint)register it with PluginRegistry.register(_:) before loading")
                }
                let origin: StepOrigin
                if let ruleNumber = step["rule"] {
                    let index = try checkedRule(ruleNumber, count: rules.count, range: ruleRange)
                    // A step a rule wrote is in that rule's plan.
                    guard index == rule else { throw ruleNumber.fail("the step names rule \(index), but its plan's rule is \(rule.map(String.init) ?? "null")") }
                    origin = .rule(index: index, at: try position(step, in: stepField.path))
                } else {
                    guard step["file"] == nil, step["line"] == nil, step["column"] == nil else {
                        throw stepField.fail("a step with a position must name its 'rule'")
                    }
                    origin = .defaultPlan
                }
                steps.append(ResolvedStep(name: name, plugin: plugin, origin: origin))
            }
            plans.append(Plan(steps: steps, rule: rule))
        }

        var products: [ProductPolicy] = []
        var table: [Int32] = []
        var index: [String: Int32] = [:]
        var checked: Set<CheckKey> = []
        let productFields = try top.required("products", in: "").array()
        products.reserveCapacity(productFields.count)
        table.reserveCapacity(productFields.count * SituationSlot.count)
        for field in productFields {
            let fields = try field.object(allowed: Self.productMembers)
            let product = try readProduct(fields, at: field.path)
            guard index[product.id] == nil else { throw field.fail("a second product with the id '\(product.id)'") }
            index[product.id] = Int32(products.count)
            let numbers = try fields.required("plans", in: field.path).array()
            guard numbers.count == SituationSlot.count else {
                throw PolicyLoadError(path: "\(field.path).plans", message: "expected \(SituationSlot.count) plan numbers (one per situation), found \(numbers.count)")
            }
            let shape = product.shape
            try checkProduct(product, at: field.path, features: features, balances: balances, hasServer: server != nil)
            for (slot, numberField) in numbers.enumerated() {
                guard !plans.isEmpty else { throw numberField.fail("names a plan, but 'plans' is empty") }
                let number = try numberField.integer(in: 0...plans.count - 1)
                // Each plan is checked once per situation and product kind, not once per product.
                let key = CheckKey(plan: number, slot: slot, shape: shape, type: product.type, contentSize: product.contentSize)
                if !checked.contains(key) {
                    let situation = SituationSlot.situation(slot)
                    if let violation = PlanInvariants.violation(of: plans[number].stepNames, in: situation, shape: shape) {
                        // A policy written by an older compiler can lack a step the
                        // default plans take now (issue 25: restored plans download
                        // server content): say how to get a policy this runtime takes.
                        throw numberField.fail("plan \(number) cannot be the \(situation) plan of \(product.id): \(violation); if an older `storekeeper compile` wrote this policy, compile the catalog again")
                    }
                    for step in plans[number].steps {
                        if let reason = StepRequirement.firstUnmet(plugins.requirements(ofStep: step.name), by: product, in: situation, hasServer: server != nil) {
                            throw numberField.fail("plan \(number) cannot be the \(situation) plan of \(product.id): `\(step.name)` cannot run, because \(reason)")
                        }
                    }
                    checked.insert(key)
                }
                table.append(Int32(number))
            }
            products.append(product)
        }
        return CompiledPolicy(catalog: catalog, files: files, server: server, refundedSpendPolicy: refundedSpendPolicy,
                              features: features, balances: balances,
                              products: products, rules: rules, plans: plans, plugins: plugins, table: table)
    }

    /// The server URL, checked by the rule the catalog's is (`ServerURL`):
    /// a policy edited by hand must not send receipts elsewhere.
    private static func serverURL(_ field: JSONField) throws(PolicyLoadError) -> String {
        let text = try field.string()
        do {
            _ = try ServerURL(parsing: text)
        } catch {
            throw field.fail(error.description)
        }
        return text
    }

    /// A list of declared names, each once (as a catalog declares them).
    private static func distinctNames(_ field: JSONField, kind: String) throws(PolicyLoadError) -> [String] {
        var seen = Set<String>()
        var names: [String] = []
        for item in try field.array() {
            let name = try item.string()
            guard seen.insert(name).inserted else { throw item.fail("the \(kind) '\(name)' is declared twice; list each once") }
            names.append(name)
        }
        return names
    }

    private struct CheckKey: Hashable {
        var plan: Int
        var slot: Int
        var shape: DefaultPlan.Shape
        var type: ProductType
        var contentSize: Int64?
    }

    /// What the compiler knew from the catalog, checked again: names, what
    /// the product unlocks and grants, where its content is, and what its
    /// persistence strategy and content source need.
    private func checkProduct(_ product: ProductPolicy, at path: String, features: [String], balances: [String], hasServer: Bool) throws(PolicyLoadError) {
        if let problem = NamePatterns.productID(product.id) {
            throw PolicyLoadError(path: "\(path).id", message: "the product id \(problem)")
        }
        for feature in product.unlocks where !features.contains(feature) {
            throw PolicyLoadError(path: "\(path).unlocks", message: "'\(feature)' is not one of the policy's features")
        }
        var granted = Set<String>()
        for (number, grant) in product.grants.enumerated() {
            guard balances.contains(grant.balance) else {
                throw PolicyLoadError(path: "\(path).grants[\(number)]", message: "'\(grant.balance)' is not one of the policy's balances")
            }
            // Run time keeps one amount per balance: a second grant would be dropped without a word.
            guard granted.insert(grant.balance).inserted else {
                throw PolicyLoadError(path: "\(path).grants[\(number)]", message: "the balance '\(grant.balance)' is granted twice; a product grants each balance once (write the total in one grant)")
            }
        }
        if !product.grants.isEmpty, product.type != .consumable {
            throw PolicyLoadError(path: "\(path).grants", message: "only consumables grant balances")
        }
        if let contentPath = product.content?.path, contentPath.isEmpty || contentPath.hasPrefix("/") || contentPath.split(separator: "/").contains("..") {
            throw PolicyLoadError(path: "\(path).content.path", message: "a content path is relative and never leaves its root ('..')")
        }
        if let problem = ProductConsistency.firstProblem(of: product, hasServer: hasServer) {
            throw PolicyLoadError(path: "\(path).\(problem.member)", message: problem.message)
        }
        let purchase = PlanSituation(.purchased)
        if let reason = StepRequirement.firstUnmet(plugins.persistence(for: product.persistence).requirements, by: product, in: purchase, hasServer: hasServer) {
            throw PolicyLoadError(path: "\(path).persistence", message: "the `\(product.persistence.rawValue)` persistence plugin cannot keep this product's record: \(reason)")
        }
        if let source = product.content?.source,
           let reason = StepRequirement.firstUnmet(plugins.contentSource(for: source).requirements, by: product, in: purchase, hasServer: hasServer) {
            throw PolicyLoadError(path: "\(path).content.source", message: "the `\(source.rawValue)` content plugin cannot fetch this product's content: \(reason)")
        }
    }

    private func checkedRule(_ field: JSONField, count: Int, range: ClosedRange<Int>) throws(PolicyLoadError) -> Int {
        guard count > 0 else { throw field.fail("names a rule, but 'rules' is empty") }
        return try field.integer(in: range)
    }

    private func readProduct(_ fields: [String: JSONField], at path: String) throws(PolicyLoadError) -> ProductPolicy {
        let idField = try fields.required("id", in: path)
        let id = try idField.string()
        guard !id.isEmpty else { throw idField.fail("a product id is not empty") }
        var grants: [GrantPolicy] = []
        for field in try fields.required("grants", in: path).array() {
            let grant = try field.object(allowed: ["balance", "amount"])
            grants.append(GrantPolicy(balance: try grant.required("balance", in: field.path).string(),
                                      amount: try grant.required("amount", in: field.path).integer(in: 1...Int(Int32.max))))
        }
        var content: ContentPolicy?
        if let field = fields["content"] {
            let members = try field.object(allowed: ["source", "path", "size", "storage"])
            content = ContentPolicy(source: try members.required("source", in: field.path).enumeration(ContentSource.self),
                                    path: try members["path"]?.string(),
                                    size: try members["size"].map { field throws(PolicyLoadError) in Int64(try field.integer(in: 0...Int(Int64.max))) },
                                    storage: try members["storage"]?.enumeration(ContentStorage.self))
        }
        var subscription: SubscriptionPolicy?
        if let field = fields["subscription"] {
            let members = try field.object(allowed: ["group", "level", "period"])
            subscription = SubscriptionPolicy(group: try members.required("group", in: field.path).string(),
                                              level: try members.required("level", in: field.path).integer(in: 1...Int(Int32.max)),
                                              period: try members.required("period", in: field.path).enumeration(SubscriptionPeriod.self))
        }
        return ProductPolicy(
            id: id,
            type: try fields.required("type", in: path).enumeration(ProductType.self),
            delivery: try fields.required("delivery", in: path).enumeration(DeliveryModel.self),
            unlocks: try fields.required("unlocks", in: path).array().map { field throws(PolicyLoadError) in try field.string() },
            grants: grants, content: content,
            persistence: try fields.required("persistence", in: path).enumeration(PersistenceStrategy.self),
            record: try fields.required("record", in: path).enumeration(RecordKind.self),
            restore: try fields.required("restore", in: path).enumeration(RestorePolicy.self),
            restoreTrigger: try fields.required("restore-trigger", in: path).enumeration(RestoreTrigger.self),
            restoreSelection: try fields.required("restore-selection", in: path).enumeration(RestoreSelection.self),
            maxQuantity: try fields.required("max-quantity", in: path).integer(in: 1...10),
            familyShareable: try fields.required("family-shareable", in: path).bool(),
            subscription: subscription,
            duration: try fields["duration"]?.string(),
            offers: try fields["offers"].map { field throws(PolicyLoadError) in try readOffers(field) } ?? [])
    }

    /// A product's `offers`: `{kind, id}` each.
    private func readOffers(_ field: JSONField) throws(PolicyLoadError) -> [OfferPolicy] {
        var offers: [OfferPolicy] = []
        for offer in try field.array() {
            let members = try offer.object(allowed: ["kind", "id"])
            offers.append(OfferPolicy(kind: try members.required("kind", in: offer.path).enumeration(OfferKind.self),
                                      id: try members.required("id", in: offer.path).string()))
        }
        return offers
    }
}
