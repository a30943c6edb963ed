/// UTF-16 files (with a byte order mark) are turned into UTF-8 before
/// parsing, so that every position, excerpt and message works on one
/// encoding; a broken UTF-16 sequence is an error at its character.
enum UTF16Input {
    enum Outcome {
        /// Not UTF-16: parse the bytes as they are.
        case notUTF16
        /// The text as UTF-8 (without the byte order mark).
        case converted([UInt8])
        /// A broken sequence after this much valid text (as UTF-8).
        case invalid(validPrefix: [UInt8])
    }

    static func convert(_ bytes: [UInt8]) -> Outcome {
        guard bytes.count >= 2 else { return .notUTF16 }
        let bigEndian: Bool
        switch (bytes[0], bytes[1]) {
        case (0xFE, 0xFF): bigEndian = true
        case (0xFF, 0xFE): bigEndian = false
        default: return .notUTF16
        }
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var index = 2
        while index + 1 < bytes.count {
            let high = UInt16(bytes[index]), low = UInt16(bytes[index + 1])
            units.append(bigEndian ? high << 8 | low : low << 8 | high)
            index += 2
        }
        var output: [UInt8] = []
        output.reserveCapacity(units.count)
        let failed = transcode(units.makeIterator(), from: UTF16.self, to: UTF8.self, stoppingOnError: true) { output.append($0) }
        if failed || index < bytes.count { return .invalid(validPrefix: output) }
        return .converted(output)
    }
}
