public import TOMLKit

extension TOMLType {
    /// The type as a message names it: "a string", "an integer".
    public var phrase: String {
        switch self {
        case .table: "a table"
        case .array: "an array"
        case .string: "a string"
        case .int: "an integer"
        case .double: "a floating-point number"
        case .bool: "a boolean"
        case .date: "a date"
        case .time: "a time"
        case .dateTime: "a date-time"
        }
    }
}
