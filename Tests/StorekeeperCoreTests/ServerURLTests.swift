import StorekeeperCore
import Testing

/// The server URL rule: one parse (scheme, host, port, path), shared by the
/// catalog decoder and the compiled-policy reader.
@Suite struct ServerURLTests {
    @Test func theURLIsParsedIntoItsParts() throws {
        let url = try ServerURL(parsing: "HTTPS://Store.Example.com:8443/api/v1?x=1#f")
        #expect(url.scheme == "https")
        #expect(url.host == "Store.Example.com")
        #expect(url.port == 8443)
        #expect(url.path == "/api/v1?x=1#f")
        #expect(url.text == "HTTPS://Store.Example.com:8443/api/v1?x=1#f")
        #expect(!url.isLoopback)
        let local = try ServerURL(parsing: "http://[::1]:8080")
        #expect(local.host == "::1" && local.port == 8080 && local.path.isEmpty && local.isLoopback)
    }

    @Test(arguments: ["https://store.example.com", "https://x", "https://[fe80::1]:443/", "https://x.com/a@b", "https://xn--bcher-kva.example/",
                      "https://127.0.0.1", "https://1.2.3.4:8443/x", "https://a_b.example-1.com", "https://example.0a", "https://x.com/%C3%A9",
                      "http://localhost", "http://LocalHost:8080/x", "http://127.0.0.1:3000/x", "http://[::1]/", "https://x.com:65535"])
    func accepted(_ text: String) throws {
        #expect(try ServerURL(parsing: text).text == text)
    }

    /// Each refused with the reason that names what is wrong.
    @Test(arguments: [
        ("http://evil.com\\@localhost/", "backslash"), ("https://store.example.com\\path", "backslash"),
        ("javascript:alert(1)", "is not a URL"), ("", "is not a URL"), ("store.example.com", "is not a URL"), ("1http://x", "is not a URL"),
        ("http://example.com", "uses http"), ("http://localhost./", "valid host and port"), ("http://localhost.example.com", "uses http"),
        ("http://127.0.0.2/", "uses http"), ("http://127.0.0.1.nip.io", "uses http"), ("http://[0:0:0:0:0:0:0:1]/", "uses http"),
        ("ftp://example.com", "uses 'ftp'"), ("file:///etc/passwd", "names no host"),
        ("https://user@host", "user name"), ("https://user:secret@store.example.com/", "user name"), ("http://localhost@evil.com", "user name"),
        ("https://", "names no host"), ("https://:443", "names no host"), ("http://@", "names no host"), ("https:///path", "names no host"),
        ("https://exa mple.com", "a space"), ("https://a.com/a\u{A0}b", "a space"), ("https://a.com/\u{7}", "control character"),
        ("https://a.com\u{0}.evil", "control character"), ("https://x.com:0", "valid host and port"), ("https://x.com:65536", "valid host and port"),
        ("https://x.com:08443", "valid host and port"), ("https://x.com:", "valid host and port"), ("https://ex%61mple.com", "valid host and port"),
        ("https://[g::1]/", "valid host and port"), ("http://[::1", "valid host and port"),
        // Hosts a browser reads as another: IPv4 written another way, and characters it drops or maps.
        ("https://0x7f.1/", "valid host and port"), ("https://2130706433/", "valid host and port"), ("https://127.1/", "valid host and port"),
        ("https://x.0x1F", "valid host and port"), ("https://1.2.3.4.5/", "valid host and port"), ("https://01.2.3.4/", "valid host and port"),
        ("https://localhost.", "valid host and port"), ("https://x..com", "valid host and port"), ("https://x.com./", "valid host and port"),
        ("https://b\u{fc}cher.example/", "outside ASCII"), ("https://\u{FF25}XAMPLE.com/", "outside ASCII"),
        ("https://exa\u{AD}mple.com/", "outside ASCII"), ("https://exa\u{200B}mple.com/", "outside ASCII"),
        ("https://exa\u{FEFF}mple.com", "outside ASCII"), ("https://example.com/\u{301}x", "outside ASCII"),
        ("https://example.com\u{202E}/moc.live", "outside ASCII"),
    ])
    func refused(_ text: String, _ reason: String) {
        let problem = #expect(throws: ServerURL.Problem.self) { try ServerURL(parsing: text) }
        #expect(problem?.description.contains(reason) == true, "\(text): \(String(describing: problem))")
    }
}
