import EarshotJSON
import EarshotProtocol
import EarshotSettings

extension DaemonSettings {
    /// The settings in force as `status` reports them: by section, an unset key as null.
    var inForceForStatus: DaemonStatus.Settings {
        let settings = inForce
        return DaemonStatus.Settings(sections: SettingsKey.sections.map { section in
            DaemonStatus.Settings.Section(name: section, settings: SettingsKey.keys(in: section).map { key in
                DaemonStatus.Settings.Setting(key: key.name, value: settings.value(of: key).map(Self.statusValue) ?? .unset)
            })
        })
    }

    static func statusValue(_ value: SettingsValue) -> DaemonStatus.Settings.Value {
        switch value {
        case .text(let text): .text(text)
        case .integer(let integer): .number(JSONNumber(integer))
        case .number(let number): .number(JSONNumber(number, decimals: decimals(number)))
        case .flag(let flag): .flag(flag)
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
