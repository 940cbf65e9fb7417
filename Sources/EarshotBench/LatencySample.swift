import Foundation

/// The latencies measured for one row of a table, in seconds, and the repetitions that gave none.
struct LatencySample {
    var name: String
    var values: [Double] = []
    var misses: [String] = []

    init(_ name: String, values: [Double] = []) {
        self.name = name
        self.values = values
    }

    mutating func add(_ value: Double?, orMiss reason: @autoclosure () -> String) {
        if let value, value.isFinite {
            values.append(value)
        } else {
            misses.append(reason())
        }
    }

    var median: Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        return (sorted[(sorted.count - 1) / 2] + sorted[sorted.count / 2]) / 2
    }

    /// Nearest rank: with 10 values p90 is the 9th smallest.
    func percentile(_ p: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        let rank = Int((p * Double(sorted.count)).rounded(.up))
        return sorted[max(0, min(sorted.count - 1, rank - 1))]
    }

    /// `| name | n | median | p90 | min | max |`, in milliseconds.
    var tableRow: String {
        let ms = { (value: Double) in value.isNaN ? "–" : String(format: "%.0f", value * 1000) }
        let count = misses.isEmpty ? "\(values.count)" : "\(values.count) (\(misses.count) missed)"
        return "| \(name) | \(count) | \(ms(median)) | \(ms(percentile(0.9))) | "
            + "\(ms(values.min() ?? .nan)) | \(ms(values.max() ?? .nan)) |"
    }
}
