import CYAML

/// The baseline: libyaml's event parser run over a file's bytes, and nothing else.
///
/// It builds no nodes, keeps no events and checks nothing beyond YAML syntax, so its time is the floor
/// that any validator built on libyaml's events has to stand on.
enum BareScan {
    /// A syntax error that libyaml reported.
    struct SyntaxError: Error, CustomStringConvertible {
        /// libyaml's wording of the problem.
        let problem: String
        /// Where the problem is, counting lines and columns from 1.
        let line: Int
        /// The column of the problem, from 1.
        let column: Int

        var description: String {
            "\(line):\(column): \(problem)"
        }
    }

    /// Parses `bytes` as a YAML stream, event by event, deleting each event as soon as it is read.
    ///
    /// - Returns: The number of events, the stream's start and end included.
    /// - Throws: ``SyntaxError`` at the first error, or ``BenchmarkError`` if libyaml cannot start.
    static func scan(_ bytes: [UInt8]) throws -> Int {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) != 0 else {
            throw BenchmarkError("libyaml could not initialise a parser")
        }
        defer { yaml_parser_delete(&parser) }

        return try bytes.withUnsafeBufferPointer { buffer in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            var event = yaml_event_t()
            var events = 0
            while true {
                guard yaml_parser_parse(&parser, &event) != 0 else {
                    throw SyntaxError(
                        problem: parser.problem.map { String(cString: $0) } ?? "unknown error",
                        line: Int(parser.problem_mark.line) + 1,
                        column: Int(parser.problem_mark.column) + 1)
                }
                let type = event.type
                yaml_event_delete(&event)
                events += 1
                if type == YAML_STREAM_END_EVENT { return events }
            }
        }
    }
}
