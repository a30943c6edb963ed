/// libFuzzer's input as Swift bytes.
public enum FuzzInput {
    /// Copies the bytes libFuzzer passes to `LLVMFuzzerTestOneInput`.
    public static func bytes(_ start: UnsafePointer<UInt8>?, _ count: Int) -> [UInt8] {
        guard let start, count > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: start, count: count))
    }
}
