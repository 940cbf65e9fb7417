@main
struct EarshotDaemonMain {
    static func main() {
        print("earshotd: not built yet")
    }
}
