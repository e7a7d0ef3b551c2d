import Foundation

/// Timing and memory helpers shared by the suites.
enum Measure {
    /// The best of `rounds` timings of `body`, in seconds (best-of filters scheduler noise).
    static func best(rounds: Int = 5, _ body: () throws -> Void) rethrows -> Double {
        var best = Double.infinity
        for _ in 0..<rounds {
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            best = min(best, elapsed)
        }
        return best
    }

    /// The process's peak resident memory so far, in MiB (Linux `VmHWM`; `ru_maxrss` elsewhere).
    static func peakMemoryMiB() -> Double {
        #if os(Linux)
        if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kb = Double(line.split(separator: " ").dropFirst().first ?? "")
        {
            return kb / 1024
        }
        #endif
        var usage = rusage()
        #if os(Linux)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_maxrss) / 1024
        #else
        getrusage(RUSAGE_SELF, &usage)
        return Double(usage.ru_maxrss) / 1024 / 1024
        #endif
    }

    /// Formats a number with a fixed count of decimals.
    static func format(_ value: Double, _ decimals: Int = 1) -> String {
        String(format: "%.\(decimals)f", value)
    }

    /// Pads `text` to `width` on the left (right-aligns it).
    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }
}
