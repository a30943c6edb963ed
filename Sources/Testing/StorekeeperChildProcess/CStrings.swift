/// NUL-terminated copies of byte strings in a vector ended by a null pointer, as `posix_spawn` takes
/// `argv` and `envp`; freed with the value.
final class CStrings {
    /// The strings, then `nil`.
    let vector: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
    private let count: Int

    init(_ strings: [[UInt8]]) {
        count = strings.count
        vector = .allocate(capacity: strings.count + 1)
        for (position, bytes) in strings.enumerated() {
            let string = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            for (index, byte) in bytes.enumerated() { string[index] = CChar(bitPattern: byte) }
            string[bytes.count] = 0
            vector[position] = string
        }
        vector[strings.count] = nil
    }

    deinit {
        for position in 0..<count { vector[position]?.deallocate() }
        vector.deallocate()
    }
}
