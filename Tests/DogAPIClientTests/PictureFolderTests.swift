import Foundation
import TestHTTPServer
import TestSupport
import Testing

@testable import DogAPIClient

/// The API picks a breed's random picture by name prefix: only the breed's own folder
/// counts.
struct PictureFolderTests {
  @Test(arguments: [
    ("https://images.dog.ceo/breeds/pug/a.jpg", "pug", nil as String?, true),
    ("https://images.dog.ceo/breeds/puggle/a.jpg", "pug", nil, false),
    ("https://images.dog.ceo/breeds/hound-afghan/a.jpg", "hound", nil, true),
    ("https://images.dog.ceo/breeds/hound-afghan/a.jpg", "hound", "afghan", true),
    ("https://images.dog.ceo/breeds/pointer-germanlonghair/a.jpg", "pointer", "german", false),
    ("https://images.dog.ceo/breeds/pointer-german/a.jpg", "pointer", "german", true),
    ("https://images.dog.ceo/pug/a.jpg", "pug", nil, false),
  ])
  func aPictureIsTheBreedsByItsFolder(url: String, breed: String, subBreed: String?, expected: Bool) {
    #expect(ResponseDecoding.isPicture(URL(string: url)!, of: breed, subBreed: subBreed) == expected)
  }

  /// Another breed's picture is asked for again, then chosen from the breed's own list.
  @Test(arguments: Transport.allCases)
  func anotherBreedsPictureIsNeverTheAnswer(_ transport: Transport) async throws {
    let server = try TestHTTPServer { request in
      request.path.hasSuffix("/random")
        ? .json(#"{"message":"https:\/\/images.dog.ceo\/breeds\/puggle\/1.jpg","status":"success"}"#)
        : .json(
          #"{"message":["https:\/\/images.dog.ceo\/breeds\/puggle\/1.jpg","https:\/\/images.dog.ceo\/breeds\/pug\/2.jpg"],"status":"success"}"#
        )
    }
    defer { server.stop() }
    let url = try await liveClient(server, transport).randomImage("pug", nil)
    #expect(url.absoluteString == "https://images.dog.ceo/breeds/pug/2.jpg")
    #expect(
      server.requests.map(\.path) == Array(repeating: "/api/breed/pug/images/random", count: 3) + [
        "/api/breed/pug/images"
      ])
  }

  /// A sub-breed's list holds its own folder's pictures only, in the API's order.
  @Test func aListOfPicturesHoldsTheBreedsOwn() async throws {
    let server = try TestHTTPServer { _ in
      .json(
        #"{"message":["https:\/\/images.dog.ceo\/breeds\/pointer-german\/b.jpg","https:\/\/images.dog.ceo\/breeds\/pointer-germanlonghair\/c.jpg","https:\/\/images.dog.ceo\/breeds\/pointer-german\/a.jpg"],"status":"success"}"#
      )
    }
    defer { server.stop() }
    let urls = try await liveClient(server).images("pointer", "german")
    #expect(
      urls.map(\.absoluteString) == [
        "https://images.dog.ceo/breeds/pointer-german/b.jpg",
        "https://images.dog.ceo/breeds/pointer-german/a.jpg",
      ])
    #expect(server.requests.map(\.path) == ["/api/breed/pointer/german/images"])
    await #expect(throws: DogAPIError.invalidBreedName("../x")) {
      try await liveClient(server).images("pointer", "../x")
    }
    #expect(server.requests.count == 1)
  }

  @Test func aBreedWithNoPictureOfItsOwnSaysSo() async throws {
    let server = try TestHTTPServer { request in
      request.path.hasSuffix("/random")
        ? .json(#"{"message":"https:\/\/images.dog.ceo\/breeds\/puggle\/1.jpg","status":"success"}"#)
        : .json(#"{"message":["https:\/\/images.dog.ceo\/breeds\/puggle\/1.jpg"],"status":"success"}"#)
    }
    defer { server.stop() }
    await #expect(throws: DogAPIError.notFound(message: "the API lists no picture of pug")) {
      try await liveClient(server).randomImage("pug", nil)
    }
  }
}
