import DogAPIClient
import Foundation
import Testing

@testable import DogAPIClient

struct ResponseDecodingTests {
  func decodeURL(_ status: Int, _ body: String) -> Result<URL, DogAPIError> {
    Result { () throws(DogAPIError) -> URL in
      try ResponseDecoding.imageURL(status: status, body: Data(body.utf8))
    }
  }

  func decodeBreeds(_ status: Int, _ body: String) -> Result<[Breed], DogAPIError> {
    Result { () throws(DogAPIError) -> [Breed] in
      try ResponseDecoding.breeds(status: status, body: Data(body.utf8))
    }
  }

  @Test func theRealBreedListDecodesSorted() throws {
    let breeds = try ResponseDecoding.breeds(status: 200, body: Data(Fixture.breedsJSON.utf8))
    #expect(breeds.count == 108)
    #expect(breeds.reduce(0) { $0 + $1.subBreeds.count } == 99)
    #expect(breeds.map(\.name) == breeds.map(\.name).sorted())
    #expect(breeds.first { $0.name == "hound" }?.subBreeds.contains("afghan") == true)
    // Sub-breeds are sorted too, whatever order the API lists them in.
    let unsorted = try ResponseDecoding.breeds(
      status: 200, body: Data(#"{"message":{"hound":["walker","afghan","basset"]},"status":"success"}"#.utf8))
    #expect(unsorted == [Breed(name: "hound", subBreeds: ["afghan", "basset", "walker"])])
  }

  @Test func aBreedIsFoundByNameInTheSortedList() throws {
    let breeds = try ResponseDecoding.breeds(status: 200, body: Data(Fixture.breedsJSON.utf8))
    let list = BreedList(breeds: breeds.reversed(), source: .network)
    for (position, breed) in list.breeds.enumerated() {
      #expect(list.index(named: breed.name) == position)
    }
    #expect(list.breed(named: "hound")?.subBreeds.contains("afghan") == true)
    for missing in ["", "aaa", "houn", "hounds", "zzz", "Hound"] {
      #expect(list.index(named: missing) == nil, "\(missing)")
    }
    #expect(BreedList(breeds: [], source: .network).index(named: "pug") == nil)
  }

  /// Lists are equal by their breeds and every part of their provenance: a screen showing
  /// one redraws when any of them changes (a reload that failed leaves the same breeds with
  /// a reason to say).
  @Test func listsDifferByTheirBreedsAndEveryPartOfTheirProvenance() {
    let breeds = [Breed(name: "hound", subBreeds: ["afghan"]), Breed(name: "pug")]
    let list = BreedList(breeds: breeds, source: .network, fetchedAt: Date(timeIntervalSince1970: 1))
    #expect(
      list
        == BreedList(breeds: breeds.reversed(), source: .network, fetchedAt: Date(timeIntervalSince1970: 1)))
    var failed = list
    failed.fallbackReason = .timedOut(seconds: 10)
    var cached = list
    cached.source = .cache
    var later = list
    later.fetchedAt = Date(timeIntervalSince1970: 2)
    let fewer = BreedList(breeds: [breeds[0]], source: .network, fetchedAt: Date(timeIntervalSince1970: 1))
    for other in [failed, cached, later, fewer] { #expect(list != other, "\(other)") }
  }

  @Test func anImageURLWithEscapedSlashesDecodes() {
    let body =
      #"{"message":"https:\/\/images.dog.ceo\/breeds\/hound-afghan\/n02088094_1003.jpg","status":"success"}"#
    #expect(
      decodeURL(200, body)
        == .success(URL(string: "https://images.dog.ceo/breeds/hound-afghan/n02088094_1003.jpg")!))
  }

  /// The API returns file names as they are in its image repository, spaces and all
  /// (`mix/Sydney 4th july 2019 sml.jpg`); they must become a requestable address.
  @Test func anImageURLWithSpacesAndParenthesesIsPercentEncoded() throws {
    let body =
      #"{"message":"https:\/\/images.dog.ceo\/breeds\/mix\/Sydney 4th july (1).jpg","status":"success"}"#
    let url = try decodeURL(200, body).get()
    #expect(url.absoluteString == "https://images.dog.ceo/breeds/mix/Sydney%204th%20july%20(1).jpg")
    #expect(url.lastPathComponent == "Sydney 4th july (1).jpg")
  }

  @Test(arguments: [
    "Breed not found (main breed does not exist)", "Breed not found (master breed does not exist)",
  ])
  func a404IsNotFoundWhateverTheWording(message: String) {
    let body = #"{"status":"error","message":"\#(message)","code":404}"#
    #expect(decodeURL(404, body) == .failure(.notFound(message: message)))
  }

  @Test func theEnvelopesCodeSaysNotFoundWhateverTheHTTPStatus() {
    let message = "Breed not found (main breed does not exist)"
    #expect(
      decodeURL(200, #"{"status":"error","message":"\#(message)","code":404}"#)
        == .failure(.notFound(message: message)))
    #expect(
      decodeURL(400, #"{"status":"error","message":"\#(message)","code":"404"}"#)
        == .failure(.notFound(message: message)))
    #expect(
      decodeURL(200, #"{"status":"error","message":"\#(message)","code":500}"#)
        == .failure(.server(status: 200, message: message)))
  }

  /// A 404 without the API's error envelope comes from an address that is not the API (a
  /// base URL without `/api`, another server, a proxy answering for it): no breed is
  /// missing, whichever endpoint was asked.
  @Test(
    arguments: [
      ("", nil), ("<html><body><h1>404 Not Found</h1></body></html>", nil),
      (#"{"message":"Not Found"}"#, "Not Found"), (#"{"error":"no route"}"#, nil),
    ] as [(String, String?)])
  func a404WithoutTheAPIsEnvelopeIsAServerError(body: String, message: String?) {
    #expect(decodeURL(404, body) == .failure(.server(status: 404, message: message)))
    #expect(decodeBreeds(404, body) == .failure(.server(status: 404, message: message)))
  }

  /// The breed list names no breed, so the API's "not found" there is the API's error
  /// about the address (its router's "No route found …"), kept with its message.
  @Test func theBreedListsNotFoundIsAServerErrorWithTheAPIsMessage() {
    let message = #"No route found for "GET https://dog.ceo/api/breeds/list/al" with code: 0"#
    let envelope =
      #"{"status":"error","message":"No route found for \"GET https:\/\/dog.ceo\/api\/breeds\/list\/al\" with code: 0","code":404}"#
    #expect(decodeBreeds(404, envelope) == .failure(.server(status: 404, message: message)))
    #expect(decodeBreeds(200, envelope) == .failure(.server(status: 200, message: message)))
    // The same envelope from an endpoint that names a breed is that breed's absence.
    #expect(decodeURL(404, envelope) == .failure(.notFound(message: message)))
    // An error envelope without a code counts under HTTP 404 only.
    let uncoded = #"{"status":"error","message":"Breed not found"}"#
    #expect(decodeURL(404, uncoded) == .failure(.notFound(message: "Breed not found")))
    #expect(decodeURL(500, uncoded) == .failure(.server(status: 500, message: "Breed not found")))
  }

  @Test func serverErrorsKeepTheAPIMessageOnlyFromJSON() {
    #expect(
      decodeURL(500, #"{"status":"error","message":"Internal server error","code":500}"#)
        == .failure(.server(status: 500, message: "Internal server error")))
    #expect(
      decodeURL(502, "<html><body>Bad gateway</body></html>") == .failure(.server(status: 502, message: nil)))
    #expect(decodeURL(503, "Service Unavailable") == .failure(.server(status: 503, message: nil)))
  }

  /// A redirect the client did not follow (one without a `Location`, or "not modified")
  /// is no answer, whatever its body says.
  @Test func aRedirectStatusIsNoAnswer() {
    let success = #"{"status":"success","message":"https://images.dog.ceo/breeds/hound/1.jpg"}"#
    #expect(
      decodeURL(300, success)
        == .failure(.server(status: 300, message: "https://images.dog.ceo/breeds/hound/1.jpg")))
    #expect(
      decodeURL(304, success)
        == .failure(.server(status: 304, message: "https://images.dog.ceo/breeds/hound/1.jpg")))
  }

  @Test func a200WithoutStatusIsAServerError() {
    #expect(
      decodeURL(200, #"{"message":"Internal server error"}"#)
        == .failure(.server(status: 200, message: "Internal server error")))
  }

  @Test func malformedTruncatedAndWrongTypesAreMalformed() {
    #expect(
      decodeURL(200, #"{"message":"https://x/y.jpg","sta"#)
        == .failure(.malformedResponse(detail: "the body is not a JSON object")))
    #expect(decodeURL(200, "[1,2]") == .failure(.malformedResponse(detail: "the body is not a JSON object")))
    #expect(
      decodeURL(200, #"{"message":42,"status":"success"}"#)
        == .failure(.malformedResponse(detail: "the image address is not a string")))
    // An empty host, as Foundation reads a port or a login with no name before it.
    for address in [
      "javascript:alert(1)", "http:///breeds/x.jpg", "https:images.dog.ceo", "https://:443/x.jpg",
      "http://@/x.jpg",
    ] {
      #expect(
        decodeURL(200, #"{"message":"\#(address)","status":"success"}"#)
          == .failure(.malformedResponse(detail: "the image address is not an http(s) URL")), "\(address)")
    }
    #expect(
      decodeURL(200, #"{"status":"success"}"#)
        == .failure(.malformedResponse(detail: "the success envelope has no message")))
    let wrongList = Result { () throws(DogAPIError) in
      try ResponseDecoding.breeds(status: 200, body: Data(#"{"message":"hound","status":"success"}"#.utf8))
    }
    #expect(wrongList.map(\.count) == .failure(.malformedResponse(detail: "the breed list is not an object")))
    for (message, detail) in [
      (#"{"hound":"afghan"}"#, "the sub-breeds of a breed are not a list"),
      (#"{"hound":["afghan",7]}"#, "a sub-breed name is not a string"),
      (#"{"hound":[null]}"#, "a sub-breed name is not a string"),
    ] {
      let list = Result { () throws(DogAPIError) in
        try ResponseDecoding.breeds(
          status: 200, body: Data(#"{"message":\#(message),"status":"success"}"#.utf8))
      }
      #expect(list.map(\.count) == .failure(.malformedResponse(detail: detail)), "\(message)")
    }
  }

  @Test func namesWithControlCharactersRoundTripAsData() throws {
    let body = #"{"message":{"evil\u001b[31m":["sub\u0085"]},"status":"success"}"#
    let breeds = try ResponseDecoding.breeds(status: 200, body: Data(body.utf8))
    #expect(breeds == [Breed(name: "evil\u{1B}[31m", subBreeds: ["sub\u{85}"])])
  }

  @Test func everyErrorHasOneSentence() {
    let errors: [DogAPIError] = [
      .unreachable(host: "dog.ceo"), .connectionRefused(server: "127.0.0.1:8080"),
      .secureConnectionFailed(host: "dog.ceo"), .timedOut(seconds: 10),
      .proxyUnreachable(proxy: "10.0.0.1:3128"), .proxyUnreachable(proxy: ""),
      .proxySecureConnectionFailed(proxy: "10.0.0.1:3129"), .proxySecureConnectionFailed(proxy: ""),
      .proxyRefused(host: "dog.ceo", status: 407),
      .proxyRefused(host: "dog.ceo", status: 502), .proxyRefused(host: "dog.ceo", status: nil),
      .connectionLost(host: "dog.ceo"),
      .notFound(message: nil),
      .notFound(message: "Breed not found (main breed does not exist)"), .server(status: 500, message: nil),
      .server(status: 429, message: nil),
      .server(status: 500, message: "Boom"), .malformedResponse(detail: "x"),
      .responseTooLarge(limit: 1 << 20),
      .invalidBreedName("../x"), .invalidURL("ftp://x"), .cancelled,
      .unimplemented(endpoint: "DogAPIClient.breeds"),
    ]
    for error in errors {
      #expect(error.message.hasSuffix("."), "\(error)")
      #expect(!error.message.contains("\n"), "\(error)")
    }
    #expect(
      DogAPIError.responseTooLarge(limit: 1 << 20).message == "The server's answer was larger than 1 MB.")
    // Whole kilobytes and megabytes are named so; anything else is counted in bytes.
    for (limit, size) in [
      (1024, "1 KB"), (512 * 1024, "512 KB"), (3 << 20, "3 MB"), (1536 << 10, "1536 KB"),
      (1000, "1000 bytes"), (1025, "1025 bytes"), (0, "0 bytes"),
    ] {
      #expect(
        DogAPIError.responseTooLarge(limit: limit).message == "The server's answer was larger than \(size).")
    }
    #expect(DogAPIError.unreachable(host: "dog.ceo").message == "Can't reach dog.ceo: you may be offline.")
    // Rate limited: said as such where the server gives no words of its own.
    for message in [nil, ""] {
      #expect(
        DogAPIError.server(status: 429, message: message).message
          == "The server is getting too many requests (HTTP 429): wait a moment before trying again.")
    }
    #expect(
      DogAPIError.server(status: 429, message: "Slow down").message
        == "The server reported an error (HTTP 429): Slow down.")
    #expect(DogAPIError.server(status: 429, message: nil).isTransient)
    // A 5xx is said in one short line: the real API's message quotes its own request and
    // the status it got, which is no reason a person can use; a short plain one is kept.
    let quoted =
      "Server error: `GET https://images.dog.ceo/breeds/hound/list` resulted in a `502 Bad Gateway` response:\n<html>…"
    #expect(DogAPIError.server(status: 500, message: quoted).message == "The server had an error (HTTP 500).")
    #expect(
      DogAPIError.server(status: 503, message: "Down for maintenance.").message
        == "The server had an error (HTTP 503): Down for maintenance.")
    let long = String(repeating: "word ", count: 20)
    #expect(DogAPIError.server(status: 500, message: long).message == "The server had an error (HTTP 500).")
    #expect(
      DogAPIError.connectionRefused(server: "[::1]:8080").message
        == "Can't connect to [::1]:8080: nothing is accepting connections there.")
    // A name of letters fails for its length alone: the message says that.
    let longName = String(repeating: "a", count: 65)
    #expect(
      DogAPIError.invalidBreedName(longName).message
        == "“\(longName)” is not a breed name: names have at most 64 letters.")
    #expect(
      DogAPIError.invalidBreedName(longName + "1").message
        == "“\(longName)1” is not a breed name: names are lowercase letters only.")
    #expect(
      DogAPIError.invalidBreedName("../x").message
        == "“../x” is not a breed name: names are lowercase letters only.")
    #expect(
      DogAPIError.secureConnectionFailed(host: "dog.ceo").message
        == "Can't make a secure connection to dog.ceo: its certificate or encryption was not accepted.")
    #expect(
      DogAPIError.proxySecureConnectionFailed(proxy: "10.0.0.1:3129").message
        == "Can't make a secure connection to the proxy server 10.0.0.1:3129: its certificate or encryption was not accepted."
    )
    #expect(
      DogAPIError.proxySecureConnectionFailed(proxy: "").message
        == "Can't make a secure connection to the proxy server: its certificate or encryption was not accepted."
    )
    #expect(DogAPIError.proxySecureConnectionFailed(proxy: "").isTransient)
    #expect(
      DogAPIError.proxyUnreachable(proxy: "10.0.0.1:3128").message
        == "Can't reach the proxy server 10.0.0.1:3128: check the proxy settings.")
    #expect(
      DogAPIError.proxyUnreachable(proxy: "").message
        == "Can't reach the proxy server: check the proxy settings.")
    #expect(
      DogAPIError.proxyRefused(host: "dog.ceo", status: 407).message
        == "The proxy server wants a login to reach dog.ceo (HTTP 407).")
    #expect(
      DogAPIError.proxyRefused(host: "dog.ceo", status: 403).message
        == "The proxy server would not connect to dog.ceo (HTTP 403).")
    // A SOCKS proxy has no HTTP status to quote, nor says whether trying again may help.
    #expect(
      DogAPIError.proxyRefused(host: "dog.ceo", status: nil).message
        == "The proxy server would not connect to dog.ceo.")
    #expect(DogAPIError.proxyRefused(host: "dog.ceo", status: nil).isTransient)
    // A proxy that is down or cannot reach the host may recover; a login or a block won't.
    #expect(DogAPIError.proxyUnreachable(proxy: "p").isTransient)
    #expect(DogAPIError.connectionRefused(server: "127.0.0.1:8080").isTransient)
    #expect(DogAPIError.proxyRefused(host: "dog.ceo", status: 502).isTransient)
    #expect(!DogAPIError.proxyRefused(host: "dog.ceo", status: 407).isTransient)
    #expect(!DogAPIError.proxyRefused(host: "dog.ceo", status: 403).isTransient)
    #expect(
      DogAPIError.connectionLost(host: "dog.ceo").message
        == "The connection to dog.ceo was lost before the whole answer arrived.")
    #expect(DogAPIError.timedOut(seconds: 10).message == "The server took longer than 10 s to answer.")
    #expect(DogAPIError.timedOut(seconds: 0.25).message == "The server took longer than 0.25 s to answer.")
  }

  @Test func breedNameValidation() {
    #expect(BreedName.isValid("hound"))
    // The bounds: a to z, one to 64 of them.
    for good in ["a", "z", "abcdefghijklmnopqrstuvwxyz", String(repeating: "z", count: 64)] {
      #expect(BreedName.isValid(good), "\(good)")
    }
    for bad in [
      "", "Hound", "../etc", "hound/afghan", "a b", "hound\u{1B}", "é", "hound?x=1", "`", "{",
      String(repeating: "a", count: 65),
    ] {
      #expect(!BreedName.isValid(bad), "\(bad.debugDescription)")
    }
    // Too long: letters only, one more than the most a name has.
    #expect(BreedName.maximumLength == 64)
    #expect(BreedName.isTooLong(String(repeating: "a", count: 65)))
    for notTooLong in [
      String(repeating: "a", count: 64), String(repeating: "a", count: 64) + "B", "", "../x",
    ] {
      #expect(!BreedName.isTooLong(notTooLong), "\(notTooLong)")
    }
  }

  @Test func typedTextIsFoldedToThePlainLettersNamesUse() {
    for (typed, folded) in [
      ("HOUND", "hound"), ("Brabançon", "brabancon"), ("Coton de Tuléar", "coton de tulear"),
      ("Ｈｏｕｎｄ", "hound"), ("Terrier/KERRYBLUE", "terrier/kerryblue"), ("Lo\u{308}wchen", "lowchen"),
      ("Weiß", "weiss"), ("", ""), ("../x", "../x"),
      // Pasted from a web page: a zero-width space, a soft hyphen, a byte-order mark, a
      // word joiner; a no-break, a thin and an ideographic space.
      ("hou\u{200B}nd", "hound"), ("Dober\u{AD}mann", "dobermann"), ("\u{FEFF}Pug", "pug"),
      ("Pug\u{2060}", "pug"), ("Shih\u{A0}Tzu", "shih tzu"), ("St.\u{2009}Bernard", "st. bernard"),
      ("Great\u{3000}Dane", "great dane"),
    ] {
      #expect(BreedName.folded(typed) == folded, "\(typed)")
    }
    // Folded, but still not a name: folding is no validation.
    #expect(!BreedName.isValid(BreedName.folded("Ｈｏｕｎｄ／ａｆｇｈａｎ")))
    #expect(!BreedName.isValid(BreedName.folded("Løwchen")))
  }
}
