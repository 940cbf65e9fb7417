/// Request ids of every JSON kind, as a front end may send them: the decoder and the server both
/// must echo each back unchanged.
public enum RequestIDSamples {
    public static let everyKind: [String] = [
        "null", "true", "false", "0", "-7", "1.50", "1e3", #""abc""#, #""é \"q\" \\ \n""#, "[]", #"[1,"two",[null]]"#,
        "{}", #"{"b":1,"a":{"c":[true]}}"#,
    ]
}
