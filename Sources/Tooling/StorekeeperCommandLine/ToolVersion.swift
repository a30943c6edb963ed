/// The version the command-line tools print (`storekeeper --version`) and
/// write into SARIF reports, so that both name the same one.
package enum ToolVersion {
    package static let current = "0.1.0"
}
