public import EarshotBase

/// `devices`' response for people: the sources and sinks, marked `default`, `in use` and `monitor`
/// (a sink's loopback, listed among the sources).
///
/// ```
/// Sources
///   alsa_input.pci-0000_00_1f.3.analog-stereo  Built-in Audio Analog Stereo  [default, in use]
/// Sinks
///   alsa_output.pci-0000_00_1f.3.analog-stereo  Built-in Audio Analog Stereo  [default, in use]
/// ```
public enum DeviceListing {
    public static func lines(_ devices: JSONValue) -> [String] {
        section("Sources", devices["sources"]?.arrayValue ?? [], inUse: devices["source"]?.stringValue)
            + section("Sinks", devices["sinks"]?.arrayValue ?? [], inUse: devices["sink"]?.stringValue)
    }

    static func section(_ title: String, _ entries: [JSONValue], inUse: String?) -> [String] {
        guard !entries.isEmpty else { return [title, "  (none)"] }
        let names = entries.map { $0["name"]?.stringValue ?? "?" }
        let nameWidth = names.map(\.count).max() ?? 0
        let descriptions = entries.map { $0["description"]?.stringValue ?? "" }
        let descriptionWidth = descriptions.map(\.count).max() ?? 0
        var lines = [title]
        for (index, entry) in entries.enumerated() {
            var marks: [String] = []
            if entry["default"]?.boolValue == true { marks.append("default") }
            if names[index] == inUse { marks.append("in use") }
            if entry["monitor"]?.boolValue == true { marks.append("monitor") }
            var line = "  " + names[index].padding(toLength: nameWidth, withPad: " ", startingAt: 0)
                + "  " + descriptions[index].padding(toLength: descriptionWidth, withPad: " ", startingAt: 0)
            if !marks.isEmpty { line += "  [" + marks.joined(separator: ", ") + "]" }
            lines.append(String(line.reversed().drop(while: { $0 == " " }).reversed()))
        }
        if let inUse, !names.contains(inUse) { lines.append("  in use: \(inUse) (not in the list)") }
        return lines
    }
}
