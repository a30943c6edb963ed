/// A value bound to or read from a statement, common to SQLite and PostgreSQL.
enum SQLValue: Sendable, Equatable {
    case text(String)
    case integer(Int64)
    case real(Double)
    case null

    init(_ text: String?) { self = text.map(SQLValue.text) ?? .null }
    init(_ number: Int?) { self = number.map { .integer(Int64($0)) } ?? .null }
    init(_ number: Double?) { self = number.map(SQLValue.real) ?? .null }
}

/// One row of a result, read by column index with the type the column has.
struct SQLRow: Sendable {
    var values: [SQLValue]

    func text(_ index: Int) throws -> String {
        guard let value = try optionalText(index) else { throw StorageError.corrupt("column \(index) is NULL, text expected") }
        return value
    }

    func optionalText(_ index: Int) throws -> String? {
        switch value(index) {
        case .text(let text): text
        case .null: nil
        case let other: throw StorageError.corrupt("column \(index) is \(other), text expected")
        }
    }

    func integer(_ index: Int) throws -> Int {
        guard let value = try optionalInteger(index) else { throw StorageError.corrupt("column \(index) is NULL, an integer expected") }
        return value
    }

    func optionalInteger(_ index: Int) throws -> Int? {
        switch value(index) {
        case .integer(let number): Int(number)
        case .null: nil
        case let other: throw StorageError.corrupt("column \(index) is \(other), an integer expected")
        }
    }

    func real(_ index: Int) throws -> Double {
        guard let value = try optionalReal(index) else { throw StorageError.corrupt("column \(index) is NULL, a number expected") }
        return value
    }

    func optionalReal(_ index: Int) throws -> Double? {
        switch value(index) {
        case .real(let number): number
        // SQLite keeps a REAL column's whole numbers as reals, but an expression may yield an integer.
        case .integer(let number): Double(number)
        case .null: nil
        case let other: throw StorageError.corrupt("column \(index) is \(other), a number expected")
        }
    }

    private func value(_ index: Int) -> SQLValue { index < values.count ? values[index] : .null }
}
