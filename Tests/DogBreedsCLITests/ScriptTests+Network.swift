import Foundation
import TestHTTPServer
import TestSupport
import Testing

extension ScriptTests {
  @Test(.enabled(if: proxiesComeFromTheEnvironment, "macOS takes its proxy from the system's settings"))
  func theProxyVariablesAreHonoured() async throws {
    // A host that does not exist (`.invalid` never resolves) is reached through the proxy
    // that `http_proxy` names, which gets the whole address, as proxies do.
    let proxy = try TestHTTPServer { [breedsJSON] _ in .json(breedsJSON) }
    defer { proxy.stop() }
    let environment = cleanEnvironment(["http_proxy": proxy.baseURL.absoluteString])
    let run = try await runCLI(
      ["list", "--base-url", "http://dogs.invalid/api"], environment: environment)
    #expect(run.status == 0)
    #expect(run.stdout == "Akita\nHound\nPug\n")
    #expect(proxy.requests.map(\.path) == ["http://dogs.invalid/api/breeds/list/all"])
    // `no_proxy` lists hosts to reach directly (the client adds loopback to that list, and
    // must keep the user's): this one then cannot be reached at all (or, where a resolver
    // answers even for names that do not exist, not understood), and the app falls back
    // to the built-in list with a warning.
    let direct = try await runCLI(
      ["list", "--base-url", "http://dogs.invalid/api"],
      environment: environment.merging(["no_proxy": "dogs.invalid"]) { $1 })
    #expect(direct.status == 0 && direct.stderr.hasPrefix("warning: "))
    #expect(proxy.requests.count == 1)
  }

  @Test(.enabled(if: proxiesComeFromTheEnvironment, "macOS takes its proxy from the system's settings"))
  func aProxyThatFailsIsNamedNotTheHost() async throws {
    // Behind a proxy that is down, or whose name does not resolve, the warning names the
    // proxy: the API may well be up (a browser using other settings reaches it). A setting
    // libcurl cannot read is the proxy's too. A login in the proxy's address is never shown.
    let port = TestHTTPServer.refusedPort()
    for (proxy, named) in [
      ("http://127.0.0.1:\(port)", " 127.0.0.1:\(port):"), ("http://proxy.invalid:3128", " proxy.invalid"),
      ("http://someone:secret@127.0.0.1:\(port)", " 127.0.0.1:\(port):"),
      ("http://someone:secret@proxy corp:1", ": check the proxy settings."),
      ("socks5h://proxy.invalid:1080", " proxy.invalid:"),
      ("socks5://127.0.0.1:\(port)", " 127.0.0.1:\(port):"),
    ] {
      let run = try await runCLI(
        ["list", "--base-url", "http://dogs.invalid/api"],
        environment: cleanEnvironment(["http_proxy": proxy]))
      #expect(run.status == 0)
      #expect(run.stderr.hasPrefix("warning: Can't reach the proxy server\(named)"), "\(run.stderr)")
      #expect(!run.stderr.contains("secret"))
    }
    // A proxy that will not open a tunnel to an https host says why, in its status.
    let refusing = try TestHTTPServer { request in
      request.method == "CONNECT" ? .text("Proxy login needed", status: 407) : .hangUp
    }
    defer { refusing.stop() }
    let run = try await runCLI(
      ["list", "--base-url", "https://dogs.invalid/api"],
      environment: cleanEnvironment(["https_proxy": refusing.baseURL.absoluteString]))
    #expect(run.status == 0)
    #expect(
      run.stderr.hasPrefix("warning: The proxy server wants a login to reach dogs.invalid (HTTP 407)."),
      "\(run.stderr)")
    #expect(refusing.requests.map(\.method) == ["CONNECT"])
    #expect(refusing.requests.map(\.path) == ["dogs.invalid:443"])
    // For a plain-HTTP address the proxy answers in the server's place: the same words.
    let asking = try TestHTTPServer { _ in .text("Proxy login needed", status: 407) }
    defer { asking.stop() }
    let plain = try await runCLI(
      ["list", "--base-url", "http://dogs.invalid/api"],
      environment: cleanEnvironment(["http_proxy": asking.baseURL.absoluteString]))
    #expect(
      plain.stderr.hasPrefix("warning: The proxy server wants a login to reach dogs.invalid (HTTP 407)."),
      "\(plain.stderr)")
    // A SOCKS proxy that refuses the connection, or breaks off the handshake (here, a
    // server that is no SOCKS proxy and answers in HTTP), has no status to quote.
    let socks = try TestHTTPServer(refusingSOCKSWith: 5)
    defer { socks.stop() }
    let notSOCKS = try TestHTTPServer { _ in .hangUp }
    defer { notSOCKS.stop() }
    for proxy in [socks, notSOCKS] {
      let run = try await runCLI(
        ["list", "--base-url", "http://dogs.invalid/api"],
        environment: cleanEnvironment(["ALL_PROXY": "socks5h://127.0.0.1:\(proxy.port)"]))
      #expect(
        run.stderr.hasPrefix("warning: The proxy server would not connect to dogs.invalid. "), "\(run.stderr)"
      )
    }
    #expect(socks.requests.map(\.path) == ["dogs.invalid:80"])
    // Where the host's name is resolved here (socks5, not socks5h) and does not resolve,
    // the proxy is not to blame.
    let resolvedHere = try await runCLI(
      ["list", "--base-url", "http://dogs.invalid/api"],
      environment: cleanEnvironment(["ALL_PROXY": "socks5://127.0.0.1:\(socks.port)"]))
    #expect(
      resolvedHere.stderr.hasPrefix("warning: Can't reach dogs.invalid: you may be offline."),
      "\(resolvedHere.stderr)")
    #expect(socks.requests.count == 1)
  }

  @Test func anHTTPSProxyWhoseTLSFailsIsNamedNotTheHost() async throws {
    // An `https://` proxy (TLS to the proxy itself) whose handshake fails, here one that
    // answers in plain HTTP, is the proxy's trouble: the API's certificate was never seen.
    // For an http address too, which the proxy fetches itself.
    let proxy = try TestHTTPServer { _ in .hangUp }
    defer { proxy.stop() }
    for (variable, scheme) in [("https_proxy", "https"), ("http_proxy", "http")] {
      let run = try await runCLI(
        ["list", "--base-url", "\(scheme)://dogs.invalid/api"],
        environment: cleanEnvironment([variable: "https://127.0.0.1:\(proxy.port)"]))
      #expect(run.status == 0)
      #expect(
        run.stderr.hasPrefix(
          "warning: Can't make a secure connection to the proxy server 127.0.0.1:\(proxy.port): "),
        "\(run.stderr)")
    }
    #expect(proxy.requests.isEmpty)
  }

  @Test func aServerOnThisMachineIsReachedPastAProxy() async throws {
    // A proxy elsewhere could not reach it; a local mirror or test server must work with
    // the proxy a company sets for everything else (here, one that is not even running).
    let server = try TestHTTPServer { [breedsJSON] _ in .json(breedsJSON) }
    defer { server.stop() }
    let deadProxy = "http://127.0.0.1:\(TestHTTPServer.refusedPort())"
    for variable in ["http_proxy", "all_proxy", "ALL_PROXY"] {
      let run = try await runCLI(["list"] + api(server), environment: cleanEnvironment([variable: deadProxy]))
      #expect(run.status == 0 && run.stderr.isEmpty, "\(variable): \(run.stderr)")
      #expect(run.stdout == "Akita\nHound\nPug\n", "\(variable)")
    }
  }

  /// A script can tell a stale answer: by default a stand-in list is exit 0 with a
  /// warning; with --fresh it is exit 1.
  @Test func freshMakesAStandInListAFailure() async throws {
    let refused = ["--base-url", "http://127.0.0.1:9/api", "--timeout", "2"]
    let warned = try await runCLI(["list"] + refused)
    #expect(warned.status == 0 && warned.stdout.hasPrefix("Affenpinscher\n"))
    #expect(warned.stderr.hasPrefix("warning: Can't connect to 127.0.0.1:9"), "\(warned.stderr)")
    let failed = try await runCLI(["list", "--fresh"] + refused)
    #expect(failed.status == 1 && failed.stdout.isEmpty)
    #expect(failed.stderr.hasSuffix("(--fresh: only the network's list will do.)\n"), "\(failed.stderr)")
    #expect(try await runCLI(["show", "pug", "--fresh"] + refused).status == 1)
  }
}
