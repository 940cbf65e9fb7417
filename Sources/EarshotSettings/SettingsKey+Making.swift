extension SettingsKey {
    /// A key backed by a string that always has a value.
    static func make(
        _ path: (String, String), _ keyPath: any WritableKeyPath<Settings, String> & Sendable, kind: SettingsValueKind,
        flag: String, reload: SettingsReloadEffect, _ summary: String
    ) -> SettingsKey {
        SettingsKey(
            section: path.0, name: path.1, kind: kind, flag: flag, summary: summary, unsetMeaning: nil, example: nil, reload: reload,
            read: { .text($0[keyPath: keyPath]) },
            write: { settings, value in if case .text(let text) = value { settings[keyPath: keyPath] = text } }
        )
    }

    /// An optional string key: left out, it means `unset`.
    static func make(
        _ path: (String, String), _ keyPath: any WritableKeyPath<Settings, String?> & Sendable, flag: String,
        reload: SettingsReloadEffect, unset: String, example: String, _ summary: String
    ) -> SettingsKey {
        SettingsKey(
            section: path.0, name: path.1, kind: .text, flag: flag, summary: summary, unsetMeaning: unset,
            example: .text(example), reload: reload,
            read: { $0[keyPath: keyPath].map(SettingsValue.text) },
            write: { settings, value in
                switch value {
                case .text(let text): settings[keyPath: keyPath] = text
                case nil: settings[keyPath: keyPath] = nil
                default: break
                }
            }
        )
    }

    static func make(
        _ path: (String, String), _ keyPath: any WritableKeyPath<Settings, Bool> & Sendable, flag: String,
        reload: SettingsReloadEffect, _ summary: String
    ) -> SettingsKey {
        SettingsKey(
            section: path.0, name: path.1, kind: .flag, flag: flag, summary: summary, unsetMeaning: nil, example: nil, reload: reload,
            read: { .flag($0[keyPath: keyPath]) },
            write: { settings, value in if case .flag(let flag) = value { settings[keyPath: keyPath] = flag } }
        )
    }

    static func make(
        _ path: (String, String), _ keyPath: any WritableKeyPath<Settings, Int> & Sendable, kind: SettingsValueKind,
        flag: String, reload: SettingsReloadEffect, _ summary: String
    ) -> SettingsKey {
        SettingsKey(
            section: path.0, name: path.1, kind: kind, flag: flag, summary: summary, unsetMeaning: nil, example: nil, reload: reload,
            read: { .integer($0[keyPath: keyPath]) },
            write: { settings, value in if case .integer(let integer) = value { settings[keyPath: keyPath] = integer } }
        )
    }

    static func make(
        _ path: (String, String), _ keyPath: any WritableKeyPath<Settings, Double> & Sendable, kind: SettingsValueKind,
        flag: String, reload: SettingsReloadEffect, _ summary: String
    ) -> SettingsKey {
        SettingsKey(
            section: path.0, name: path.1, kind: kind, flag: flag, summary: summary, unsetMeaning: nil, example: nil, reload: reload,
            read: { .number($0[keyPath: keyPath]) },
            write: { settings, value in
                switch value {
                case .number(let number): settings[keyPath: keyPath] = number
                case .integer(let integer): settings[keyPath: keyPath] = Double(integer)
                default: break
                }
            }
        )
    }

    /// A key that takes one of an enumeration's words.
    static func make<Choice: RawRepresentable & CaseIterable & Sendable>(
        _ path: (String, String), _ keyPath: any WritableKeyPath<Settings, Choice> & Sendable, flag: String,
        reload: SettingsReloadEffect, _ summary: String
    ) -> SettingsKey where Choice.RawValue == String {
        SettingsKey(
            section: path.0, name: path.1, kind: .choice(Choice.allCases.map(\.rawValue)), flag: flag, summary: summary,
            unsetMeaning: nil, example: nil, reload: reload,
            read: { .text($0[keyPath: keyPath].rawValue) },
            write: { settings, value in
                if case .text(let word) = value, let choice = Choice(rawValue: word) { settings[keyPath: keyPath] = choice }
            }
        )
    }
}
