/// Numbers written as C's `printf("%.*f")` writes them (and so Foundation's
/// `String(format:)`), without either: for messages that say "retrying in 2.5 s".
///
/// Unlike ``FixedDecimal`` (the event writer's numbers, rounded half away from zero after
/// scaling), this rounds the double's exact binary value, a tie to even, like `printf`.
public enum DecimalText {
    /// `value` with `decimals` digits (0 to 18) after the point: `%.1f` of 2.25 is `2.2`, of
    /// -0.04 `-0.0`; `inf`, `-inf`, `nan` or `-nan` when not finite.
    public static func fixed(_ value: Double, decimals: Int) -> String {
        precondition((0...18).contains(decimals), "decimals must be 0 to 18")
        let sign = value.sign == .minus ? "-" : ""
        guard value.isFinite else { return sign + (value.isNaN ? "nan" : "inf") }
        let magnitude = value.magnitude
        // magnitude = significand × 2^exponent, exactly.
        let significand = UInt128(magnitude.significandBitPattern | (magnitude.isNormal ? 1 << 52 : 0))
        let exponent = magnitude.isNormal ? Int(magnitude.exponentBitPattern) - 1075 : -1074
        var digits: String
        if exponent >= 0 {
            digits = wholeDigits(significand, timesTwoToThe: exponent) + String(repeating: "0", count: decimals)
        } else {
            digits = String(scaledAndRounded(significand, overTwoToThe: -exponent, decimals: decimals))
        }
        if digits.count <= decimals { digits = String(repeating: "0", count: decimals + 1 - digits.count) + digits }
        guard decimals > 0 else { return sign + digits }
        return sign + digits.dropLast(decimals) + "." + digits.suffix(decimals)
    }

    /// `significand` × 10^decimals / 2^shift, rounded to an integer, a tie to even.
    private static func scaledAndRounded(_ significand: UInt128, overTwoToThe shift: Int, decimals: Int) -> UInt128 {
        var power: UInt128 = 1
        for _ in 0..<decimals { power *= 10 }
        // Below 2^113 (2^53 × 10^18 < 2^113); past a shift of 120 it is under a half, so 0.
        let scaled = significand * power
        guard shift < 120 else { return 0 }
        let quotient = scaled >> shift
        let remainder = scaled & ((1 << shift) - 1)
        let half: UInt128 = 1 << (shift - 1)
        let roundsUp = remainder > half || (remainder == half && quotient & 1 == 1)
        return roundsUp ? quotient + 1 : quotient
    }

    /// The decimal digits of `significand` × 2^exponent, which may be far beyond 128 bits.
    private static func wholeDigits(_ significand: UInt128, timesTwoToThe exponent: Int) -> String {
        if exponent <= 64 { return String(significand << exponent) }
        // Base 10^9 limbs, least significant first, doubled `exponent` times.
        var limbs: [UInt64] = []
        var rest = significand
        while rest > 0 {
            limbs.append(UInt64(rest % 1_000_000_000))
            rest /= 1_000_000_000
        }
        for _ in 0..<exponent {
            var carry: UInt64 = 0
            for index in limbs.indices {
                let doubled = limbs[index] * 2 + carry
                limbs[index] = doubled % 1_000_000_000
                carry = doubled / 1_000_000_000
            }
            if carry > 0 { limbs.append(carry) }
        }
        var text = String(limbs.last ?? 0)
        for limb in limbs.dropLast().reversed() {
            let part = String(limb)
            text += String(repeating: "0", count: 9 - part.count) + part
        }
        return text
    }
}
