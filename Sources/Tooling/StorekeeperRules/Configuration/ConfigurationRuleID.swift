/// The id of the diagnostics about `storekeeper.yml` itself. (Problems with
/// its YAML come from the YAML layer, with `YAMLRuleID`'s ids.)
public enum ConfigurationRuleID {
    /// An unknown key, a value of the wrong kind, an unknown rule or a bad
    /// severity, step name or path pattern in the configuration file.
    public static let configuration = "configuration"
}
