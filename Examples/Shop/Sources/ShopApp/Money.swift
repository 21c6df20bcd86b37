/// Prices as the screens show them.
enum Money {
    /// `2450` → `€24.50`.
    static func text(_ cents: Int) -> String {
        let euros = cents / 100, rest = cents % 100
        return "€\(euros)." + (rest < 10 ? "0" : "") + String(rest)
    }
}
