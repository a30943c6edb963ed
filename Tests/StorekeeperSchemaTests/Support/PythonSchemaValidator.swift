import StorekeeperChildProcess
import StorekeeperCore
import StorekeeperDiagnostics
import StorekeeperJSON
import StorekeeperSchema
import StorekeeperTestSupport
import Foundation
import Testing

/// One error that Python's `jsonschema` reports, flattened out of the
/// `anyOf`/`oneOf` trees it nests them in.
struct SchemaError: Sendable, CustomStringConvertible {
    /// The JSON pointer of the instance the error is about.
    var pointer: String
    /// The keyword that failed: `required`, `pattern`..., or `false` for a
    /// `false` subschema (a key that is not allowed there).
    var keyword: String
    /// The keywords the error was reached through (`propertyNames`, `anyOf`...).
    var schemaPath: [String]
    var message: String
    /// 0 for an error reported at the top, more for one inside an `anyOf`'s context.
    var depth: Int

    var description: String { "\(pointer.isEmpty ? "/" : pointer) [\(keyword)] \(message)" }
}

/// Runs Python's `jsonschema` (Draft202012Validator), the reference
/// validator the issue asks for, on documents: one process for many.
///
/// A missing `python3` or `jsonschema` fails the test with the command that
/// installs it, as `PolicySchemaTests` does: the check never passes silently.
enum PythonSchemaValidator {
    /// Exits 3 when jsonschema is missing; prints the errors of each document as JSON.
    static let script = """
        import json, sys
        try:
            import jsonschema
        except ImportError:
            print("the Python package jsonschema is not installed"); sys.exit(3)
        with open(sys.argv[1], encoding="utf-8") as f: schema = json.load(f)
        with open(sys.argv[2], encoding="utf-8") as f: documents = json.load(f)
        jsonschema.Draft202012Validator.check_schema(schema)
        validator = jsonschema.Draft202012Validator(schema)
        def flatten(error, depth, out):
            out.append({
                "path": [str(part) for part in error.absolute_path],
                "keyword": "false" if error.validator is None else error.validator,
                "schemaPath": [str(part) for part in error.absolute_schema_path],
                "message": error.message,
                "depth": depth,
            })
            for child in error.context or []:
                flatten(child, depth + 1, out)
        results = []
        for document in documents:
            out = []
            for error in validator.iter_errors(document):
                flatten(error, 0, out)
            results.append(out)
        json.dump(results, sys.stdout)
        """

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The errors of each document (JSON text), against `schema` (the
    /// generated schema unless given).
    static func errors(of documents: [String], schema: String = CatalogSchema.text) throws -> [[SchemaError]] {
        let run = try ScratchFolder.with(prefix: "storekeeper-schema") { directory in
            let schemaFile = directory.appendingPathComponent("schema.json")
            let documentsFile = directory.appendingPathComponent("documents.json")
            try schema.write(to: schemaFile, atomically: true, encoding: .utf8)
            try ("[" + documents.joined(separator: ",\n") + "]").write(to: documentsFile, atomically: true, encoding: .utf8)
            return try ChildProcess(
                "/usr/bin/env", ["python3", "-c", script, schemaFile.path, documentsFile.path],
                standardOutput: .capture(limit: .max), standardError: .capture(limit: .max)
            ).run(timeout: .seconds(600))
        }
        let stdout = run.standardOutput
        let stderr = String(decoding: run.standardError, as: UTF8.self)
        if run.termination == .exited(3) || run.termination == .exited(127) {
            let message = "\(String(decoding: stdout, as: UTF8.self))\(stderr)\nInstall the validator: python3 -m pip install jsonschema"
            Issue.record(Comment(rawValue: message))
            throw Failure(description: message)
        }
        guard run.termination == .exited(0) else {
            throw Failure(description: "python3 jsonschema \(run.termination):\n\(stderr)")
        }
        guard case .array(let results) = try JSONParser().parse(Array(stdout)) else {
            throw Failure(description: "unexpected output from the validator")
        }
        return results.map { result in
            guard case .array(let errors) = result else { return [] }
            return errors.compactMap(SchemaError.init)
        }
    }

    /// Whether `jsonschema` accepts the schema itself (its meta-schema check).
    static func checkSchema(_ schema: String = CatalogSchema.text) throws {
        _ = try errors(of: [], schema: schema)
    }
}

extension SchemaError {
    init?(_ value: JSONValue) {
        guard case .object(let members) = value else { return nil }
        func member(_ name: String) -> JSONValue? { members.first { $0.key == name }?.value }
        func strings(_ name: String) -> [String] {
            guard case .array(let items)? = member(name) else { return [] }
            return items.compactMap { if case .string(let text) = $0 { text } else { nil } }
        }
        guard case .string(let keyword)? = member("keyword"), case .string(let message)? = member("message"),
              case .integer(let depth)? = member("depth")
        else { return nil }
        self.init(
            pointer: StorekeeperSchema.JSONPointer.pointer(strings("path")), keyword: keyword,
            schemaPath: strings("schemaPath"), message: message, depth: depth)
    }
}
