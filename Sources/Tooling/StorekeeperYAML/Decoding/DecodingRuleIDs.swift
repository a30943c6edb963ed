/// The rule ids a ``YAMLDecodingContext`` reports its readers' problems
/// with: each kind of file names the same problems in its own vocabulary
/// (a catalog's `wrong-kind` is a scenario's `scenario-type`, and
/// storekeeper.yml has one id for all), so the vocabulary is given once, when
/// the context is made, and the readers stay the same.
package struct DecodingRuleIDs: Sendable {
    /// A key the format does not define where it is written.
    package var unknownKey: String
    /// A required key a mapping lacks.
    package var missingKey: String
    /// A value of the wrong shape: a list or a mapping where a single value
    /// goes (or the reverse), no value at all, a quoted or tagged number or boolean.
    package var wrongKind: String
    /// A single value that does not read as what is asked: an empty text
    /// where one is required, not digits, digits with a leading zero, not
    /// true or false.
    package var malformed: String
    /// A word that is none of the accepted ones.
    package var invalidValue: String
    /// A whole number outside its range, too large to hold included.
    package var outOfRange: String
    /// A YAML 1.1 boolean (`yes`, `no`, `on`, `off`).
    package var booleanSpelling: String
    /// The last word, counting the problems past the ceiling that were not listed.
    package var tooManyProblems: String

    /// A vocabulary with an id for each problem.
    package init(
        unknownKey: String, missingKey: String, wrongKind: String, malformed: String,
        invalidValue: String, outOfRange: String, booleanSpelling: String, tooManyProblems: String
    ) {
        self.unknownKey = unknownKey
        self.missingKey = missingKey
        self.wrongKind = wrongKind
        self.malformed = malformed
        self.invalidValue = invalidValue
        self.outOfRange = outOfRange
        self.booleanSpelling = booleanSpelling
        self.tooManyProblems = tooManyProblems
    }
}
