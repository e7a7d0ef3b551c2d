import Foundation

/// Calls an action when the system asks apps to give memory back: UIKit's memory warning on
/// iOS, tvOS and visionOS. Elsewhere (macOS, Linux) there is no such notification and it does
/// nothing unless given a name to listen for.
final class MemoryPressureObserver: @unchecked Sendable {
    // @unchecked: `token` is set once in init and only read in deinit.
    private let token: (any NSObjectProtocol)?

    /// The name of UIKit's `UIApplication.didReceiveMemoryWarningNotification`, written out so
    /// that listening for it needs no main-actor access to `UIApplication`.
    static let memoryWarning = Notification.Name("UIApplicationDidReceiveMemoryWarningNotification")

    /// The notification a cache listens for on this platform, if any.
    static var platformNotification: Notification.Name? {
        #if canImport(UIKit)
        memoryWarning
        #else
        nil
        #endif
    }

    init(listeningFor name: Notification.Name? = platformNotification, _ action: @escaping @Sendable () -> Void) {
        token = name.map { name in
            NotificationCenter.default.addObserver(forName: name, object: nil, queue: nil) { _ in action() }
        }
    }

    deinit {
        if let token { NotificationCenter.default.removeObserver(token) }
    }
}
