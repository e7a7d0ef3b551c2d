import Foundation
import KilnSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Something an ``APIClient`` did while working on a call: each attempt's request, its response or
/// failure with timings, and each retry.
public enum APIEvent: Sendable {
    /// An attempt's request is about to go out, as the interceptors left it.
    case requestWillSend(URLRequest, attempt: Int)
    /// An attempt received a response (any status), `duration` after it was sent.
    case responseReceived(URLRequest, ResponseHead, attempt: Int, duration: Duration, metrics: TransferMetrics?)
    /// An attempt failed: no response, a failing status, or cancellation.
    case attemptFailed(URLRequest, APIError, attempt: Int, duration: Duration, metrics: TransferMetrics?)
    /// The client will send the request again after `delay` (`nil`: at once).
    case retryScheduled(URLRequest, after: Duration?, attempt: Int)
    /// A transfer ended that `callers` identical calls shared (``Endpoint/sharesTransfer``): its
    /// attempts were reported once. `request` is the call's request before interceptors.
    case transferShared(URLRequest, callers: Int)
}

/// Sees every ``APIEvent`` of a client: for logging, debugging an API in an app, or metrics.
///
/// A monitor only looks; to change requests or decide retries, write an ``Interceptor``.
///
/// ```swift
/// var client = APIClient(baseURL: url)
/// client.eventMonitors.append(EventMonitor { event in
///     if case .requestWillSend(let request, _) = event { print(request.cURLDescription) }
/// })
/// ```
///
/// The closure runs on the calling task, in order, and should return quickly.
public struct EventMonitor: Sendable {
    /// Receives each event.
    public var receive: @Sendable (APIEvent) -> Void

    /// A monitor that passes each event to `receive`.
    public init(_ receive: @escaping @Sendable (APIEvent) -> Void) {
        self.receive = receive
    }

    /// Writes each request as a `curl` command line and each response or failure with its
    /// status and time to `write` (standard output by default).
    public static func printing(to write: @escaping @Sendable (String) -> Void = { print($0) }) -> EventMonitor {
        EventMonitor { event in
            switch event {
            case .requestWillSend(let request, let attempt):
                write("→ attempt \(attempt)\n\(request.cURLDescription)")
            case .responseReceived(let request, let head, _, let duration, _):
                write("← \(head.status) \(request.url?.absoluteString ?? "") in \(duration)")
            case .attemptFailed(let request, let error, _, let duration, _):
                write("✗ \(request.url?.absoluteString ?? ""): \(error) after \(duration)")
            case .retryScheduled(_, let delay, let attempt):
                write("↻ attempt \(attempt + 1) \(delay.map { "in \($0)" } ?? "now")")
            case .transferShared(let request, let callers):
                write("⇉ \(request.url?.absoluteString ?? "") shared by \(callers) callers")
            }
        }
    }
}

/// What the URL Loading System measured about one attempt, where the platform delivers it
/// (`URLSessionTaskMetrics` on Apple platforms; Linux's Foundation does not collect metrics).
public struct TransferMetrics: Sendable, Hashable {
    /// One request–response exchange of the attempt (a redirect makes more than one).
    public struct Transaction: Sendable, Hashable {
        /// The protocol, such as `"h2"` or `"http/1.1"`, when known.
        public var networkProtocol: String?
        /// Whether the request went over a connection opened earlier.
        public var isReusedConnection: Bool
        /// Time spent resolving the host name.
        public var domainLookup: Duration?
        /// Time spent opening the connection, TLS included.
        public var connect: Duration?
        /// Time spent on the TLS handshake.
        public var secureConnection: Duration?
        /// From the start of the request to the first byte of the response.
        public var timeToFirstByte: Duration?
        /// From the first byte of the response to its last.
        public var responseTransfer: Duration?

        /// Describes one transaction.
        public init(
            networkProtocol: String? = nil, isReusedConnection: Bool = false, domainLookup: Duration? = nil,
            connect: Duration? = nil, secureConnection: Duration? = nil, timeToFirstByte: Duration? = nil,
            responseTransfer: Duration? = nil
        ) {
            self.networkProtocol = networkProtocol
            self.isReusedConnection = isReusedConnection
            self.domainLookup = domainLookup
            self.connect = connect
            self.secureConnection = secureConnection
            self.timeToFirstByte = timeToFirstByte
            self.responseTransfer = responseTransfer
        }
    }

    /// From the creation of the task to its end.
    public var total: Duration
    /// Redirects followed.
    public var redirectCount: Int
    /// The exchanges, in order.
    public var transactions: [Transaction]

    /// Describes an attempt's metrics.
    public init(total: Duration, redirectCount: Int, transactions: [Transaction]) {
        self.total = total
        self.redirectCount = redirectCount
        self.transactions = transactions
    }

    init(_ metrics: URLSessionTaskMetrics) {
        func span(_ start: Date?, _ end: Date?) -> Duration? {
            guard let start, let end else { return nil }
            return .seconds(end.timeIntervalSince(start))
        }
        self.init(
            total: .seconds(metrics.taskInterval.duration),
            redirectCount: metrics.redirectCount,
            transactions: metrics.transactionMetrics.map { transaction in
                Transaction(
                    networkProtocol: transaction.networkProtocolName,
                    isReusedConnection: transaction.isReusedConnection,
                    domainLookup: span(transaction.domainLookupStartDate, transaction.domainLookupEndDate),
                    connect: span(transaction.connectStartDate, transaction.connectEndDate),
                    secureConnection: span(transaction.secureConnectionStartDate, transaction.secureConnectionEndDate),
                    timeToFirstByte: span(transaction.requestStartDate, transaction.responseStartDate),
                    responseTransfer: span(transaction.responseStartDate, transaction.responseEndDate))
            })
    }
}

/// Carries an attempt's ``TransferMetrics`` from the transport to the client: the client sets a
/// recorder for the length of a transport call, and ``URLSessionTransport`` fills it when the
/// platform hands over its metrics.
package final class MetricsRecorder: Sendable {
    @TaskLocal package static var current: MetricsRecorder?

    private let recorded = LockedValue<TransferMetrics?>(nil)

    package init() {}

    package var metrics: TransferMetrics? {
        recorded.current
    }

    package func record(_ metrics: TransferMetrics) {
        recorded.set(metrics)
    }
}
