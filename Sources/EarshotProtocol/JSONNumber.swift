/// A JSON number kept as its literal text, so that it is echoed exactly as it was sent
/// (`1.50` stays `1.50`, `1e3` stays `1e3`).
public struct JSONNumber: Hashable, Sendable, CustomStringConvertible {
    /// The literal; always valid JSON number syntax.
    public let text: String

    /// Wraps a literal the parser has already checked.
    init(validatedText: String) {
        self.text = validatedText
    }

    public init(_ value: Int) {
        self.text = String(value)
    }

    /// `value` rounded to `decimals` places, trailing zeros kept, no exponent; non-finite is 0.
    public init(_ value: Double, decimals: Int) {
        self.text = FixedDecimal.format(value, decimals: decimals)
    }

    public var description: String {
        text
    }

    public var doubleValue: Double {
        Double(text) ?? 0
    }

    /// The value when it is a whole number that fits an `Int` (`30`, `30.0` and `3e1` all are).
    public var integerValue: Int? {
        if let exact = Int(text) { return exact }
        guard let value = Double(text), value.rounded() == value, abs(value) < 9.0e15 else { return nil }
        return Int(value)
    }
}
