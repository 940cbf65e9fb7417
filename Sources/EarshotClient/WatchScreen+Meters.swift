extension WatchScreen {
    /// The bar's width in a terminal `width` columns wide: what is left beside the label and the
    /// numbers, at most `maximumBarWidth`.
    public static func barWidth(forTerminalWidth width: Int) -> Int {
        min(maximumBarWidth, max(0, width - labelWidth - meterSuffixWidth))
    }

    /// `"  0.48  -29.5 dBFS"`.
    static let meterSuffixWidth = 18

    /// `level` (0…1) as a bar of `width` cells, filled in proportion.
    public static func bar(level: Double, width: Int) -> String {
        let width = max(0, width)
        let clamped = level.isFinite ? min(1, max(0, level)) : 0
        let filled = Int((clamped * Double(width)).rounded())
        return String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
    }

    /// The meter's level bar, then one bar per band.
    func meterLines(_ label: String, _ meter: WatchModel.Meter?, note: String?, width: Int) -> [String] {
        let barWidth = Self.barWidth(forTerminalWidth: width)
        var levelLine = labelled(label, Self.bar(level: meter?.level ?? 0, width: barWidth))
        if let meter {
            levelLine += "  " + String(format: "%.2f", meter.level)
            if let rms = meter.rmsDBFS { levelLine += "  " + String(format: "%.1f dBFS", rms) }
        } else {
            levelLine += "  " + (note ?? "no reading")
        }
        let bands = meter?.bands ?? []
        let bandLines = Self.bandLabels.enumerated().map { index, bandLabel in
            let value = index < bands.count ? bands[index] : 0
            let reading = index < bands.count ? "  " + String(format: "%.2f", value) : ""
            return labelled(bandLabel, Self.bar(level: value, width: barWidth)) + reading
        }
        return [levelLine] + bandLines
    }
}
