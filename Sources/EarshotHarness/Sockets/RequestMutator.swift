/// Request lines for flooding the daemon's socket: valid requests and requests mutated every
/// way a broken or hostile client could (truncated, bits flipped, bytes inserted and deleted,
/// spliced, unknown commands, odd ids, invalid UTF-8, deep nesting, lines past the length
/// limit, empty lines), from a seed, so a run can be repeated exactly.
///
/// None of them changes what the voice UI does: the requests mutated are ones that only ask
/// or fail (`status`, `devices`, an unknown device, …), and a mutation that happens to spell a
/// command that would (`start`, `stop`, `mute`, `speak`, …) is drawn again. So a flood can run
/// alongside a conversation whose events are checked.
public struct RequestMutator {
    /// The daemon's line limit (PROTOCOL.md): longer lines get one `line_too_long`.
    public static let lineLimit = 65_536

    private var random: SeededGenerator
    private var serial = 0

    /// Requests that read or fail, never act: the material mutations start from.
    static let bases: [String] = [
        #"{"id":1,"cmd":"status"}"#,
        #"{"id":"d","cmd":"devices"}"#,
        #"{"id":3,"cmd":"voices"}"#,
        #"{"id":4,"cmd":"frobnicate"}"#,
        #"{"id":5,"cmd":"set-source","name":"nope"}"#,
        #"{"id":6,"cmd":"set-sink","name":""}"#,
        #"{"id":7,"cmd":"subscribe","topics":["nope"]}"#,
        #"{"id":8,"cmd":"subscribe","level_hz":"fast"}"#,
        #"{"id":9,"cmd":"set-voice","voice":"Nova"}"#,
        #"{"id":10,"cmd":"forget"}"#,
        #"{"id":11,"cmd":"unsubscribe"}"#,
        #"{"id":{"nested":[1,"x"]},"cmd":"status"}"#,
        #"{"id":12}"#,
        #"{"id":13,"cmd":7}"#,
        #"[1,2]"#,
        #"not json"#,
        #"{"id":14,"cmd":"status","extra":{"a":[true,false,null,-0.5e3,"\u00e9\n"]}}"#,
    ]

    /// Words a mutation must not spell: commands that would change the voice UI's state.
    private static let forbidden: [[UInt8]] = ["start", "stop", "dismiss", "cancel", "mute", "preview", "speak", "say"]
        .map { Array($0.utf8) }

    public init(seed: UInt64) {
        random = SeededGenerator(seed: seed)
    }

    /// The next line, without its newline (it contains none).
    public mutating func next() -> [UInt8] {
        while true {
            var line = draw()
            for index in line.indices where line[index] == UInt8(ascii: "\n") { line[index] = UInt8(ascii: " ") }
            if !Self.spellsForbiddenWord(line) { return line }
        }
    }

    private mutating func draw() -> [UInt8] {
        serial += 1
        let base = Array(Self.bases[Int.random(in: 0..<Self.bases.count, using: &random)].utf8)
        switch Int.random(in: 0..<10_000, using: &random) {
        case 0..<2000:
            return base
        case 2000..<3000:
            return Array(base.prefix(Int.random(in: 0...base.count, using: &random)))
        case 3000..<4000:
            var line = base
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                line[Int.random(in: 0..<line.count, using: &random)] ^= UInt8(1) << UInt8.random(in: 0...7, using: &random)
            }
            return line
        case 4000..<5000:
            var line = base
            let bytes = (0..<Int.random(in: 1...8, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            line.insert(contentsOf: bytes, at: Int.random(in: 0...line.count, using: &random))
            return line
        case 5000..<5800:
            var line = base
            let start = Int.random(in: 0..<line.count, using: &random)
            line.removeSubrange(start..<min(line.count, start + Int.random(in: 1...6, using: &random)))
            return line
        case 5800..<6600:
            let other = Array(Self.bases[Int.random(in: 0..<Self.bases.count, using: &random)].utf8)
            return Array(base.prefix(Int.random(in: 0...base.count, using: &random)))
                + Array(other.suffix(Int.random(in: 0...other.count, using: &random)))
        case 6600..<7400:
            let name = String((0..<Int.random(in: 1...12, using: &random)).map { _ in
                Character(Unicode.Scalar(UInt8.random(in: 97...122, using: &random)))
            })
            return Array(#"{"id":\#(serial),"cmd":"\#(name)"}"#.utf8)
        case 7400..<8000, 9200..<9920:
            let ids = [#""\#(serial)""#, "\(serial)", "-0", "1e400", "3.25", "null", "true", #"{"a":{"b":[]}}"#, "[]", #""é☃\u0000""#]
            return Array(#"{"id":\#(ids[Int.random(in: 0..<ids.count, using: &random)]),"cmd":"status"}"#.utf8)
        case 8000..<8800:
            var line = base
            let invalid: [[UInt8]] = [[0xFF], [0xFE, 0xFF], [0xC0, 0x80], [0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82]]
            line.insert(contentsOf: invalid[Int.random(in: 0..<invalid.count, using: &random)], at: Int.random(in: 0...line.count, using: &random))
            return line
        case 8800..<9200:
            return [[], Array("   ".utf8), [UInt8(ascii: "\r")], Array("{}".utf8), Array("\"\"".utf8), Array("{\"cmd\":\"\"}".utf8)][
                Int.random(in: 0..<6, using: &random)
            ]
        case 9920..<9970:
            // Deep nesting, within the line limit: a parser must not recurse itself to death.
            let depth = Int.random(in: 100...20_000, using: &random)
            return Array(#"{"id":"deep","cmd":"status","x":"#.utf8) + [UInt8](repeating: UInt8(ascii: "["), count: depth)
                + [UInt8](repeating: UInt8(ascii: "]"), count: Int.random(in: 0...depth, using: &random)) + [UInt8(ascii: "}")]
        case 9970..<9990:
            // Long but within the limit: a 60 KB text the command ignores.
            return Array(#"{"id":"long","cmd":"status","pad":""#.utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 60_000)
                + Array(#""}"#.utf8)
        default:
            // Past the limit: answered once with line_too_long.
            return Array(#"{"id":"huge","cmd":"status","pad":""#.utf8)
                + [UInt8](repeating: UInt8(ascii: "b"), count: Self.lineLimit + Int.random(in: 1...20_000, using: &random))
                + Array(#""}"#.utf8)
        }
    }

    private static func spellsForbiddenWord(_ line: [UInt8]) -> Bool {
        forbidden.contains { word in
            guard line.count >= word.count else { return false }
            return (0...(line.count - word.count)).contains { start in
                line[start] | 0x20 == word[0] && zip(word.indices, word).allSatisfy { line[start + $0] | 0x20 == $1 }
            }
        }
    }
}
