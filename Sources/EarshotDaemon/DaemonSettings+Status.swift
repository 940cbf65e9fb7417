import EarshotJSON
import EarshotProtocol
import EarshotSettings

extension DaemonSettings {
    /// The settings in force as `status` reports them: by section, an unset key as null.
    var json: JSONValue {
        let settings = inForce
        return .object(JSONObject(SettingsKey.sections.map { section in
            (section, .object(JSONObject(SettingsKey.keys(in: section).map { key in
                (key.name, settings.value(of: key).map(Self.json) ?? .null)
            })))
        }))
    }

    static func json(_ value: SettingsValue) -> JSONValue {
        switch value {
        case .text(let text): .string(text)
        case .integer(let integer): .integer(integer)
        case .number(let number): .number(number, decimals: decimals(number))
        case .flag(let flag): .bool(flag)
        }
    }

    /// The fewest decimals (up to 3) that write `number` as it is: 15, 0.5, 0.125.
    private static func decimals(_ number: Double) -> Int {
        for decimals in 0..<3 {
            var scale = 1.0
            for _ in 0..<decimals { scale *= 10 }
            if (number * scale).rounded() == number * scale { return decimals }
        }
        return 3
    }
}
