import Foundation
import KilnTesting
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import KilnSupport

/// nginx on a loopback port, for the length of one test: a real HTTP server no one here wrote,
/// with its own `ETag`s and `Last-Modified` on static files, headers added by configuration,
/// any status with a JSON body, slow bodies (`limit_rate`), and lists paged the ways public APIs
/// page them (``pagingLocations``).
///
/// The system's nginx is used when there is one (`.ci/run` installs it); otherwise the test sets
/// one up itself on first use: on Debian and Ubuntu the package is downloaded with
/// `apt-get download` and unpacked under `.build/kiln-peers` (no root needed), on macOS it is
/// installed with Homebrew. When neither can be done the test fails saying what is missing
/// rather than passing unseen.
///
/// Every request is written to an access log, one line each, which ``requests(to:)`` reads.
struct Nginx: PeerServer {
    let baseURL: URL
    /// The folder nginx serves; tests put their files in it.
    let root: URL
    private let directory: URL
    private let server: ServerProcess

    struct Unavailable: Error, CustomStringConvertible {
        var description: String
    }

    /// One access-log line.
    struct LogLine: Sendable, Equatable {
        var method: String
        var uri: String
        var status: Int
        var ifNoneMatch: String
        var ifModifiedSince: String
        /// `true` when the whole response was sent; `false` when the client closed the connection first.
        var completed: Bool
        var bytesSent: Int
        /// The request's `X-Kiln-Trace` header (`""` without one).
        var trace = ""
    }

    static let candidates = ["/usr/sbin/nginx", "/usr/local/sbin/nginx", "/opt/homebrew/bin/nginx", "/usr/local/bin/nginx", "/usr/bin/nginx"]

    /// The server's configuration: the locations the tests use.
    static func configuration(port: Int, directory: URL, root: URL) -> String {
        let dir = directory.path
        return """
            master_process off;
            worker_processes 1;
            daemon off;
            pid \(dir)/nginx.pid;
            error_log \(dir)/error.log warn;
            events { worker_connections 2048; }
            http {
                log_format kiln '$request_method|$request_uri|$status|$http_if_none_match|$http_if_modified_since|$request_completion|$bytes_sent|$http_x_kiln_trace';
                access_log \(dir)/access.log kiln;
                client_body_temp_path \(dir)/body;
                proxy_temp_path \(dir)/proxy;
                fastcgi_temp_path \(dir)/fastcgi;
                uwsgi_temp_path \(dir)/uwsgi;
                scgi_temp_path \(dir)/scgi;
                types { application/json json; }
                default_type application/json;
                keepalive_requests 100000;
            \(pagingMaps)
                server {
                    listen 127.0.0.1:\(port);
                    root \(root.path);
                    location /static/ { }
                    location /fresh/ { add_header Cache-Control "max-age=3600"; }
                    location /stale/ { add_header Cache-Control "max-age=0"; }
                    location /nostore/ { add_header Cache-Control "no-store"; }
                    location /nocache/ { add_header Cache-Control "no-cache"; }
                    location /vary/ { add_header Vary "Accept-Language"; add_header Cache-Control "max-age=3600"; }
                    location /slow/ { limit_rate 16k; }
                    location = /problem {
                        default_type application/problem+json;
                        return 404 '{"type": "https://example.com/probs/no-user", "title": "Not Found", "status": 404, "detail": "User 42 does not exist.", "user": 42}';
                    }
                    location = /message { return 422 '{"message": "Validation Failed", "errors": [{"field": "name", "code": "missing"}]}'; }
                    location = /oauth { return 401 '{"error": "invalid_token", "error_description": "The access token expired"}'; }
                    location = /nested-error { return 400 '{"error": {"code": 400, "message": "API key not valid."}}'; }
                    location = /plain-error { default_type text/plain; return 503 'Service Unavailable'; }
                    location = /status { stub_status; }
            \(pagingLocations)
                }
            }
            """
    }

    /// Lists paged the ways public APIs page them, from the JSON files the tests put under the
    /// served folder (``NginxPagingTests``):
    ///
    /// - `/repos/kiln/issues`, then `/repositories/7/issues?page=N` (files `issues/N.json`):
    ///   GitHub's absolute `Link` header with `next`, `prev`, `first` and `last`; page 3 has no
    ///   `next`.
    /// - `/rel/items?page=N` (files `rel/N.json`): relative links (`<items?page=2>`,
    ///   `</rel/items?page=3>`), quoted values holding commas and semicolons, an upper-case
    ///   unquoted `REL=Next`, and a second `Link` line with two more links; page 3 has no `next`.
    /// - `/slowlinks/items` (file `slowlinks/1.json`): links to `/slow/linked-2.json`, served at
    ///   16 KB/s.
    /// - `/v1/customers?starting_after=ID` (files `stripe/after-ID.json`): Stripe's `has_more`.
    /// - `/api/v1/timelines/public?max_id=ID` (files `mastodon/max-ID.json`): Mastodon's `max_id`.
    /// - `/offset/items?offset=N` (files `offset/N.json`): offset and limit.
    static let pagingMaps = #"""
        map $arg_page $issues_link {
            default '';
            ''  '<$scheme://$http_host/repositories/7/issues?per_page=2&page=2>; rel="next", <$scheme://$http_host/repositories/7/issues?per_page=2&page=3>; rel="last"';
            '2' '<$scheme://$http_host/repositories/7/issues?per_page=2&page=1>; rel="prev", <$scheme://$http_host/repositories/7/issues?per_page=2&page=3>; rel="next", <$scheme://$http_host/repositories/7/issues?per_page=2&page=3>; rel="last", <$scheme://$http_host/repositories/7/issues?per_page=2&page=1>; rel="first"';
            '3' '<$scheme://$http_host/repositories/7/issues?per_page=2&page=2>; rel="prev", <$scheme://$http_host/repositories/7/issues?per_page=2&page=1>; rel="first"';
        }
        map $arg_page $rel_page { default $arg_page; '' 1; }
        map $arg_page $rel_next {
            default '';
            ''  '<items?page=2>; rel="next"; title="Page 2, of 3; next"';
            '2' '</rel/items?page=3>  ;  title=plain ; REL=Next';
        }
        """#

    static let pagingLocations = #"""
            location = /repos/kiln/issues { try_files /issues/1.json =404; add_header Link $issues_link; }
            location = /repositories/7/issues { try_files /issues/$arg_page.json =404; add_header Link $issues_link; }
            location = /rel/items {
                try_files /rel/$rel_page.json =404;
                add_header Link $rel_next;
                add_header Link '<https://docs.example.com/paging?a=1,2;b=3>; rel="help describedby"; type="text/html", </rel/items>; rel=first';
            }
            location = /slowlinks/items { try_files /slowlinks/1.json =404; add_header Link '</slow/linked-2.json>; rel="next"'; }
            location = /v1/customers { try_files /stripe/after-$arg_starting_after.json =404; }
            location = /api/v1/timelines/public { try_files /mastodon/max-$arg_max_id.json =404; }
            location = /offset/items { try_files /offset/$arg_offset.json =404; }
        """#

    /// The system's nginx, or one the tests set up under `.build/kiln-peers`.
    static func executable() async throws -> String {
        func installed() -> String? { candidates.first { FileManager.default.isExecutableFile(atPath: $0) } }
        if let found = installed() { return found }
        let unpacked = ServerProcess.peersFolder.appendingPathComponent("nginx/usr/sbin/nginx").path
        if FileManager.default.isExecutableFile(atPath: unpacked) { return unpacked }
        var tried = ""
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/apt-get") {
            let debs = ServerProcess.peersFolder.appendingPathComponent("debs")
            try FileManager.default.createDirectory(at: debs, withIntermediateDirectories: true)
            let download = try await ServerProcess.run("/usr/bin/apt-get", ["download", "nginx"], in: debs)
            let deb = (try? FileManager.default.contentsOfDirectory(atPath: debs.path))?.first { $0.hasPrefix("nginx_") && $0.hasSuffix(".deb") }
            if let deb {
                let root = ServerProcess.peersFolder.appendingPathComponent("nginx").path
                _ = try await ServerProcess.run("/usr/bin/dpkg-deb", ["-x", debs.appendingPathComponent(deb).path, root])
                if FileManager.default.isExecutableFile(atPath: unpacked) { return unpacked }
            }
            tried = "apt-get download nginx: \(download.output.suffix(300))"
        } else if let brew = ["/opt/homebrew/bin/brew", "/usr/local/bin/brew"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) {
            let install = try await ServerProcess.run(brew, ["install", "nginx"])
            if let found = installed() { return found }
            tried = "brew install nginx: \(install.output.suffix(300))"
        }
        throw Unavailable(description: "nginx is not installed and could not be set up (apt-get install nginx, or brew install nginx on macOS). \(tried)")
    }

    static func start() async throws -> Nginx {
        let binary = try await executable()
        var lastFailure = "no attempt"
        for _ in 0..<10 {
            let port = Int.random(in: 20_000..<60_000)
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kiln-nginx-\(UUID().uuidString)")
            let root = directory.appendingPathComponent("www")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            let conf = directory.appendingPathComponent("nginx.conf")
            try configuration(port: port, directory: directory, root: root).write(to: conf, atomically: true, encoding: .utf8)
            let process = try ServerProcess(
                binary, ["-p", directory.path, "-c", conf.path, "-e", directory.appendingPathComponent("error.log").path],
                errors: FileHandle.nullDevice
            )
            guard let baseURL = URL(string: "http://127.0.0.1:\(port)") else { continue }
            let server = Nginx(baseURL: baseURL, root: root, directory: directory, server: process)
            if await process.waitUntilAnswering(baseURL.appendingPathComponent("status")) { return server }
            lastFailure = (try? String(contentsOf: directory.appendingPathComponent("error.log"), encoding: .utf8)) ?? "no output"
            await server.stop()
        }
        throw Unavailable(description: "nginx did not start: \(lastFailure.suffix(400))")
    }

    /// Stops the server, waits until it has exited and removes its folder.
    func stop() async {
        // Killed outright: a test runner's threads may block SIGTERM, and a spawned process
        // inherits that mask.
        await server.stop(signal: SIGKILL)
        try? FileManager.default.removeItem(at: directory)
    }

    /// Writes `text` to the file at `path` under the served folder.
    func put(_ text: String, at path: String) throws {
        let file = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
    }

    /// Every access-log line written so far.
    func log() -> [LogLine] {
        guard let text = try? String(contentsOf: directory.appendingPathComponent("access.log"), encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 7, let status = Int(fields[2]) else { return nil }
            func header(_ value: String) -> String { value == "-" ? "" : value }
            return LogLine(
                method: fields[0], uri: fields[1], status: status, ifNoneMatch: header(fields[3]),
                ifModifiedSince: header(fields[4]), completed: fields[5] == "OK", bytesSent: Int(fields[6]) ?? 0,
                trace: fields.count > 7 ? header(fields[7]) : ""
            )
        }
    }

    /// The requests the server has finished with for `uri`, once every request that ended
    /// before this call is in the log: a marker request is sent and awaited first (the one
    /// worker logs requests in the order it finishes them).
    func requests(to uri: String) async throws -> [LogLine] {
        try await requests { $0.uri == uri }
    }

    /// The requests the server has finished with whose log line passes `include`, in the order
    /// it finished them, once every request that ended before this call is in the log (see
    /// ``requests(to:)``).
    func requests(isolation: isolated (any Actor)? = #isolation, where include: (LogLine) -> Bool) async throws -> [LogLine] {
        let marker = "/marker-\(UUID().uuidString)"
        _ = try? await URLSession.shared.data(from: baseURL.appendingPathComponent(marker))
        let logged = await eventually { log().contains { $0.uri == marker } }
        #expect(logged, "nginx did not log the marker request")
        return log().filter(include)
    }

    /// Waits until nginx writes responses on at least `count` connections (the status request
    /// included); `false` after 20 seconds without.
    func waitUntilWriting(atLeast count: Int) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            if await writingConnections() >= count { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return false
    }

    /// How many connections nginx is writing a response to now, the status request included.
    func writingConnections() async -> Int {
        guard let (data, _) = try? await URLSession.shared.data(from: baseURL.appendingPathComponent("status")),
            let text = String(data: data, encoding: .utf8),
            let range = text.range(of: "Writing: ")
        else { return 0 }
        return Int(text[range.upperBound...].prefix { $0.isNumber }) ?? 0
    }
}

/// Runs `body` with an nginx server, stopping it afterwards.
func withNginx(isolation: isolated (any Actor)? = #isolation, _ body: (Nginx) async throws -> Void) async throws {
    try await withPeer(Nginx.start, body)
}
