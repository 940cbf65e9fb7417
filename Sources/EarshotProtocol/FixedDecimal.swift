import EarshotPipeline

/// Formats numbers exactly as the event writer does, for numbers that end up in a `JSONValue`.
enum FixedDecimal {
    static func format(_ value: Double, decimals: Int) -> String {
        var writer = JSONLineWriter()
        writer.number(value, decimals: decimals)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// The fewest decimals, from 1 to `maximum`, that write `value` without rounding it, so a
    /// short delay reads `0.5` rather than `0.50` while staying deterministic.
    static func shortestDecimals(_ value: Double, maximum: Int) -> Int {
        var scale = 10.0
        for decimals in 1..<maximum {
            let scaled = value * scale
            if abs(scaled - scaled.rounded()) < 1e-9 * max(1, abs(scaled)) { return decimals }
            scale *= 10
        }
        return maximum
    }
}
