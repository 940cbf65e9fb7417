extension OpenAIFailure {
    /// The failure of a request to the assistant's chat server, worded for the `error` event and,
    /// shorter, for the person to hear: "I can't reach the assistant at 127.0.0.1:11434."
    public func assistantFailure(endpoint: OpenAIEndpoint, model: String) -> ReplyFailure {
        let message = speechError(.chat, endpoint: endpoint).message
        let address = endpoint.port == (endpoint.scheme == .https ? 443 : 80) ? endpoint.host : "\(endpoint.host):\(endpoint.port)"
        let notice: String
        switch self {
        case .unreachable:
            notice = "I can't reach the assistant at \(address)."
        case .timedOut:
            notice = "The assistant at \(address) is not answering."
        case .connectionBroken:
            notice = "The assistant's answer was cut off."
        case .unusable:
            notice = "The assistant at \(address) sent something I can't read."
        case .status(let code, _, let retryAfter):
            switch code {
            case 401, 403:
                notice = "The assistant at \(address) refused the API key."
            case 404:
                notice = "The assistant at \(address) has no model called \(model)."
            case 408, 429:
                notice = "The assistant is busy" + Self.retryText(retryAfter)
            case 500...599:
                notice = "The assistant failed" + Self.retryText(retryAfter)
            default:
                notice = "The assistant refused the question."
            }
        }
        return ReplyFailure(message: message, notice: notice)
    }

    private static func retryText(_ retryAfter: Duration?) -> String {
        guard let retryAfter else { return "; try again." }
        let seconds = Int((min(retryAfter, longestRetryAfter) / .seconds(1)).rounded(.up))
        return seconds <= 1 ? "; try again in a second." : "; try again in \(seconds) seconds."
    }
}
