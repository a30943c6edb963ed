import StorekeeperCatalog
import StorekeeperCore
import StorekeeperDiagnostics

/// Names and texts hold no characters that pass for others or cannot be seen.
struct LookAlikeCharactersRule: CatalogRule {
    static let description = RuleDescription(
        id: "look-alike-characters",
        severity: .warning,
        summary: "Ids and names do not mix scripts in a word or hold invisible or bidirectional control characters.",
        rationale: """
            Products are registered, looked up and shown by their ids and names (the In-App \
            Purchase overview: Registering Products with the App Store, Retrieving Product \
            Information); a word that mixes Latin with Cyrillic or Greek letters (`Рro` with a \
            Cyrillic `Р`), an invisible character (a zero-width space, a soft hyphen) or a \
            bidirectional control (which reorders how text is shown) makes a value look like \
            another it is not: a pasted mistake, or a spoof. Positions count Unicode scalars, as \
            columns do. A zero-width joiner or non-joiner between two letters of a script that \
            needs it (Persian, the Indic scripts, emoji sequences) is not reported; one next to a \
            Latin, Greek or Cyrillic letter is.
            """,
        triggering: [
            RuleExample("""
                  - id: com.example.unlock
                    type: non-consumable
                    reference-name: ↓Рro Unlock
                    price: "2.99"
                    localizations:
                      en-US: {title: ↓"Pro\u{200B}Unlock", description: ↓"Every\u{202E}thing"}
                      el: {title: ↓Prο Ξεκλείδωμα, description: Όλες οι λειτουργίες}
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: receipt
                    restore: receipt-refresh
                """),
            RuleExample("""
                  - id: com.example.pro.monthly
                    type: auto-renewable-subscription
                    reference-name: Pro Monthly
                    price: "3.99"
                    group: premium
                    period: P1M
                    localizations: {en-US: {title: Pro Monthly, description: Every month}}
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: receipt
                    restore: receipt-refresh
                """, groups: "groups: {premium: {name: ↓\"Pre\u{00AD}mium\", localizations: {ru: {name: ↓Премиum}}}}"),
        ],
        nonTriggering: [
            RuleExample("""
                  - id: com.example.unlock
                    type: non-consumable
                    reference-name: Pro Unlock
                    price: "2.99"
                    localizations:
                      en-US: {title: Pro Unlock, description: Everything}
                      ru: {title: Pro Разблокировка, description: Все функции Pro}
                      el: {title: Pro Ξεκλείδωμα, description: Όλες οι λειτουργίες}
                      fa: {title: "باز کردن Pro", description: "همه\u{200C}ی امکانات"}
                      ja: {title: Proアンロック, description: "すべての機能 \u{1F468}\u{200D}\u{1F4BB}"}
                    delivery: {model: built-in, unlocks: [pro]}
                    persistence: receipt
                    restore: receipt-refresh
                """),
        ])

    init() {}

    func check(_ context: RuleContext, into report: inout RuleReport) {
        let catalog = context.catalog
        Self.inspect(catalog.name, "the catalog name", into: &report)
        for feature in catalog.features { Self.inspect(feature, "a feature name", into: &report) }
        for balance in catalog.balances { Self.inspect(balance, "a balance name", into: &report) }
        for group in catalog.groups {
            Self.inspect(group.id, "a group id", into: &report)
            Self.inspect(group.name, "the name of group \(group.id.value)", into: &report)
            for localization in group.localizations {
                Self.inspect(localization.name, "the \(localization.locale.value) name of group \(group.id.value)", into: &report)
            }
        }
        for rule in catalog.rules { Self.inspect(rule.name, "a custom rule name", into: &report) }
        // By index, filtering the texts in place: copying every product, or
        // even every text, costs more than the check.
        let products = catalog.products
        for index in products.indices {
            if Self.mayHoldLookAlikes(products[index].id.value) {
                Self.inspect(products[index].id, "a product id", into: &report)
            }
            if Self.mayHoldLookAlikes(products[index].referenceName.value) {
                Self.inspect(products[index].referenceName, "the reference name of \(products[index].id.value)", into: &report)
            }
            let localizations = products[index].localizations
            for place in localizations.indices {
                if Self.mayHoldLookAlikes(localizations[place].title.value) {
                    Self.inspect(localizations[place].title, "the \(localizations[place].locale.value) title of \(products[index].id.value)", into: &report)
                }
                if Self.mayHoldLookAlikes(localizations[place].description.value) {
                    Self.inspect(localizations[place].description, "the \(localizations[place].locale.value) description of \(products[index].id.value)", into: &report)
                }
            }
        }
    }

    /// Reports the first problem of a value. `what` names the value, and is
    /// only built when there is something to report.
    static func inspect(_ value: Located<String>, _ what: @autoclosure () -> String, into report: inout RuleReport) {
        guard mayHoldLookAlikes(value.value) else { return }
        let findings = LookAlikeScan.findings(in: value.value)
        // The most dangerous first: a bidirectional control can reorder what
        // the reader sees, an invisible character hides, a look-alike misleads.
        guard let first = findings.min(by: { $0.kind.danger < $1.kind.danger }) else { return }
        let more = findings.count == 1 ? "" : " (and \(findings.count - 1) more such \(findings.count == 2 ? "problem" : "problems"))"
        report.report("\(what()) \(first.message(in: value.value))\(more)", at: value)
    }

    /// Whether a text has the UTF-8 bytes of a Greek or Cyrillic letter or of
    /// a character of the invisible and bidirectional sets: only such texts
    /// are scanned. Almost every id and name is ASCII, and most other text
    /// is Latin with accents and typographic punctuation, or in scripts none
    /// of these can hide in.
    @inline(__always)
    static func mayHoldLookAlikes(_ text: String) -> Bool {
        if let result = text.utf8.withContiguousStorageIfAvailable({ bytes in
            // The common case first: a branch-free pass the compiler can vectorize.
            bytes.reduce(UInt8(0)) { $0 | $1 } >= 0x80 && hasSuspectBytes(bytes)
        }) {
            return result
        }
        return Array(text.utf8).withUnsafeBufferPointer { hasSuspectBytes($0) }
    }

    /// The bytes that start U+00AD; U+0340–U+053F (a joiner, Greek,
    /// Cyrillic); U+061C; U+180E, U+1C80–U+1CBF and U+1F00–U+1FFF (Cyrillic
    /// and Greek extensions); U+200B–U+200F, U+202A–U+202E, U+2060–U+2069
    /// and U+2DC0–U+2DFF; U+A640–U+A69F; and U+FEFF.
    static func hasSuspectBytes(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            guard byte >= 0xC2 else { continue }
            let next: UInt8 = index < bytes.count ? bytes[index] : 0
            let third: UInt8 = index + 1 < bytes.count ? bytes[index + 1] : 0
            switch byte {
            case 0xC2 where next == 0xAD: return true
            case 0xCD...0xD4: return true
            case 0xD8 where next == 0x9C: return true
            case 0xE1 where (next == 0xA0 && third == 0x8E) || next == 0xB2 || next >= 0xBC: return true
            case 0xE2 where (next == 0x80 && ((0x8B...0x8F).contains(third) || (0xAA...0xAE).contains(third)))
                || (next == 0x81 && (0xA0...0xA9).contains(third)) || next == 0xB7:
                return true
            case 0xEA where next == 0x99 || next == 0x9A: return true
            case 0xEF where next == 0xBB && third == 0xBF: return true
            default: continue
            }
        }
        return false
    }
}

/// One pass over a value's scalars that finds words mixing scripts,
/// invisible characters and bidirectional controls.
enum LookAlikeScan {
    typealias Index = String.UnicodeScalarView.Index

    /// The scripts whose letters pass for one another.
    enum Script: CaseIterable {
        case cyrillic, greek, latin

        var name: String {
            switch self {
            case .cyrillic: "Cyrillic"
            case .greek: "Greek"
            case .latin: "Latin"
            }
        }
    }

    /// A problem at one scalar of a value.
    struct Finding {
        enum Kind {
            /// Lower is worse: bidirectional controls, then invisible characters, then mixed scripts.
            var danger: Int {
                switch self {
                case .bidirectional: 0
                case .invisible: 1
                case .mixedScripts: 2
                }
            }

            case invisible
            case bidirectional
            /// The word's range, and the script most of its letters are in.
            case mixedScripts(word: Range<Index>, main: Script, odd: Script)
        }

        let kind: Kind
        let scalar: Unicode.Scalar
        let index: Index
        /// 1-based, in scalars.
        let position: Int

        /// What is wrong and what to do, after the name of the value.
        func message(in text: String) -> String {
            let character = LookAlikeScan.describe(scalar)
            switch kind {
            case .invisible:
                return "holds \(character), an invisible character, at character \(position)\(context(in: text)); remove it"
            case .bidirectional:
                return "holds \(character), a bidirectional control that changes the order the text is shown in, at character \(position)\(context(in: text)); remove it"
            case let .mixedScripts(word, main, odd):
                let shown = String(text.unicodeScalars[word])
                return "mixes \(odd.name) and \(main.name) letters in the word '\(shown)': \(character) at character \(position) is \(odd.name); write the word in \(main.name) letters only"
            }
        }

        /// Where an unseen character is: after the text before it.
        private func context(in text: String) -> String {
            guard position > 1 else { return " (at the start)" }
            let scalars = text.unicodeScalars
            let start = scalars.index(index, offsetBy: -min(position - 1, 12))
            return " (after '\(String(scalars[start..<index]))')"
        }
    }

    /// The letters of each script in the word being read (no arrays: a
    /// word starts at every space, and must not allocate).
    private struct Word {
        typealias Letter = (scalar: Unicode.Scalar, index: Index, position: Int)
        var start: Index?
        var cyrillic = 0, greek = 0, latin = 0
        var firstCyrillic, firstGreek, firstLatin: Letter?

        func count(_ script: Script) -> Int {
            switch script {
            case .cyrillic: cyrillic
            case .greek: greek
            case .latin: latin
            }
        }

        func first(_ script: Script) -> Letter? {
            switch script {
            case .cyrillic: firstCyrillic
            case .greek: firstGreek
            case .latin: firstLatin
            }
        }

        mutating func extend(at index: Index) {
            if start == nil { start = index }
        }

        mutating func add(_ script: Script, _ scalar: Unicode.Scalar, at index: Index, position: Int) {
            extend(at: index)
            let letter = (scalar, index, position)
            switch script {
            case .cyrillic:
                cyrillic += 1
                if firstCyrillic == nil { firstCyrillic = letter }
            case .greek:
                greek += 1
                if firstGreek == nil { firstGreek = letter }
            case .latin:
                latin += 1
                if firstLatin == nil { firstLatin = letter }
            }
        }

        /// Ends the word at `end`, reporting it if it mixes Latin with Cyrillic or Greek.
        mutating func finish(at end: Index, into found: inout [Finding]) {
            defer { self = Word() }
            guard let start, latin > 0, cyrillic > 0 || greek > 0 else { return }
            // The odd script out has the fewest letters; on a tie, the non-Latin one
            // (`allCases` lists Latin last, and `min` keeps the first of equals).
            let present = Script.allCases.filter { count($0) > 0 }
            guard let odd = present.min(by: { count($0) < count($1) }),
                  let main = present.filter({ $0 != odd }).max(by: { count($0) < count($1) }),
                  let letter = first(odd)
            else { return }
            found.append(Finding(kind: .mixedScripts(word: start..<end, main: main, odd: odd), scalar: letter.scalar, index: letter.index, position: letter.position))
        }
    }

    /// Every problem in a non-ASCII text, in order.
    static func findings(in text: String) -> [Finding] {
        let scalars = text.unicodeScalars
        var found: [Finding] = []
        var word = Word()
        var previous: Unicode.Scalar?
        var position = 0
        var index = scalars.startIndex
        while index < scalars.endIndex {
            let scalar = scalars[index]
            let next = scalars.index(after: index)
            position += 1
            defer {
                previous = scalar
                index = next
            }
            if let kind = control(scalar) {
                let joined = isJoiner(scalar) && joinsLetters(previous) && joinsLetters(next < scalars.endIndex ? scalars[next] : nil)
                if !joined { found.append(Finding(kind: kind, scalar: scalar, index: index, position: position)) }
                // Invisible inside a word: the word goes on, so `Р\u{200B}ro` still mixes scripts.
                continue
            }
            if let script = letterScript(scalar) {
                word.add(script, scalar, at: index, position: position)
            } else if breaksWords(scalar) {
                word.finish(at: index, into: &found)
            } else {
                word.extend(at: index)
            }
        }
        word.finish(at: scalars.endIndex, into: &found)
        if found.count > 1 { found.sort { $0.position < $1.position } }
        return found
    }

    /// Invisible characters and bidirectional controls.
    static func control(_ scalar: Unicode.Scalar) -> Finding.Kind? {
        switch scalar.value {
        case 0x200B...0x200D, 0x2060...0x2064, 0xFEFF, 0x00AD, 0x180E, 0x034F: .invisible
        case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: .bidirectional
        default: nil
        }
    }

    /// The zero-width non-joiner and joiner, which some scripts and emoji need.
    static func isJoiner(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value == 0x200C || scalar.value == 0x200D
    }

    /// Whether a joiner next to this scalar can be doing its job: it is
    /// neither ASCII nor in a script whose words never need one.
    static func joinsLetters(_ scalar: Unicode.Scalar?) -> Bool {
        guard let scalar, !scalar.isASCII else { return false }
        return scriptRange(scalar) == nil
    }

    /// The script of a letter, for the three scripts that pass for one another.
    static func letterScript(_ scalar: Unicode.Scalar) -> Script? {
        if scalar.isASCII {
            let value = scalar.value | 0x20
            return value >= 0x61 && value <= 0x7A ? .latin : nil
        }
        guard let script = scriptRange(scalar), scalar.properties.isAlphabetic else { return nil }
        return script
    }

    /// The script whose block holds a non-ASCII scalar, letter or not.
    static func scriptRange(_ scalar: Unicode.Scalar) -> Script? {
        switch scalar.value {
        case 0x00C0...0x024F, 0x0250...0x02AF, 0x1E00...0x1EFF, 0x2C60...0x2C7F, 0xA720...0xA7FF, 0xAB30...0xAB6F,
             0xFF21...0xFF3A, 0xFF41...0xFF5A:
            .latin
        case 0x0370...0x03FF, 0x1F00...0x1FFF: .greek
        case 0x0400...0x052F, 0x1C80...0x1C8F, 0x2DE0...0x2DFF, 0xA640...0xA69F: .cyrillic
        default: nil
        }
    }

    /// Spaces, punctuation and symbols end a word; letters of other
    /// scripts, digits and marks belong to it.
    static func breaksWords(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            let value = scalar.value
            return !((value | 0x20) >= 0x61 && (value | 0x20) <= 0x7A) && !(value >= 0x30 && value <= 0x39)
        }
        switch scalar.properties.generalCategory {
        case .spaceSeparator, .lineSeparator, .paragraphSeparator, .control,
             .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
             .initialPunctuation, .finalPunctuation, .otherPunctuation,
             .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol:
            return true
        default:
            return false
        }
    }

    /// `U+0420 CYRILLIC CAPITAL LETTER ER`.
    static func describe(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        guard let name = scalar.properties.name ?? scalar.properties.nameAlias else { return code }
        return code + " " + name
    }
}
