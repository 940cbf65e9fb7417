import EarshotBase
import Foundation
import Testing

/// `DecimalText.fixed` against Foundation's `String(format:)`, which it replaces byte for byte.
@Suite struct DecimalTextTests {
    static let values: [Double] = [
        0, -0.0, 1, -1, 0.05, 0.15, 0.25, 0.35, 0.45, 2.25, 2.5, 3.5, -2.5, 0.125, 1.005, 9.95, 9.96, 99.95,
        1e-7, .leastNonzeroMagnitude, 1.5e-300, 123_456.789, 1e15, 4_503_599_627_370_497, 1e20, 1.7976931348623157e308,
        2.675, 0.1 + 0.2, 1.0 / 3.0, 30, 2.4999999999999996, 0.000_001_5,
    ]

    @Test(arguments: 0...6)
    func writesAsPrintfDoes(_ decimals: Int) {
        for value in Self.values + Self.values.map(-) {
            #expect(DecimalText.fixed(value, decimals: decimals) == String(format: "%.\(decimals)f", value), "\(value)")
        }
    }

    @Test func randomValuesToo() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let value = Double(bitPattern: generator.next() & 0x7FEF_FFFF_FFFF_FFFF)
            let scaled = [value, Double.random(in: -1000...1000, using: &generator), Double(Int.random(in: -500...500)) / 8]
            for number in scaled {
                let decimals = Int.random(in: 0...4, using: &generator)
                #expect(DecimalText.fixed(number, decimals: decimals) == String(format: "%.\(decimals)f", number), "\(number)")
            }
        }
    }

    @Test func notFinite() {
        #expect(DecimalText.fixed(.infinity, decimals: 1) == "inf")
        #expect(DecimalText.fixed(-.infinity, decimals: 1) == "-inf")
        #expect(DecimalText.fixed(.nan, decimals: 1) == "nan")
    }
}
