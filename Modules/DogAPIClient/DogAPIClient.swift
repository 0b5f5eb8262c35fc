import Core
import Foundation

/// The Dog CEO API as a value: one `@Sendable` closure per endpoint.
///
/// Choose an implementation where the app starts (``live(_:)``), use ``fake(latency:)``
/// for demos and screenshots, and start every test from ``failing``, overriding only
/// the endpoints the test exercises:
///
/// ```swift
/// var client = DogAPIClient.failing
/// client.breeds = { BreedList(breeds: [Breed(name: "hound")], source: .network) }
/// ```
///
/// Every endpoint throws ``DogAPIError`` only.
public struct DogAPIClient: Sendable {
  /// The whole breed list (`GET /breeds/list/all`).
  ///
  /// The live client falls back to the on-disk cache, then to the bundled snapshot,
  /// when the network fails; ``BreedList/source`` says which.
  public var breeds: @Sendable () async throws(DogAPIError) -> BreedList

  /// A random image URL for a breed, or for a sub-breed of it
  /// (`GET /breed/{breed}/images/random`, `GET /breed/{breed}/{sub}/images/random`).
  ///
  /// Names are validated (lowercase ASCII letters) before any request.
  public var randomImage: @Sendable (_ breed: String, _ subBreed: String?) async throws(DogAPIError) -> URL

  /// The addresses of every picture of a breed, or of a sub-breed of it, in the API's
  /// order (`GET /breed/{breed}/images`, `GET /breed/{breed}/{sub}/images`): only those in
  /// its own folders, as the API matches names by prefix (`pug`'s would hold puggles).
  ///
  /// Names are validated (lowercase ASCII letters) before any request.
  public var images: @Sendable (_ breed: String, _ subBreed: String?) async throws(DogAPIError) -> [URL]

  /// The bytes behind an image URL, capped in size.
  public var imageData: @Sendable (_ url: URL) async throws(DogAPIError) -> Data

  /// The breed list saved by an earlier run, read at once without the network (source
  /// ``BreedListSource/cache``), or `nil` where there is none: what a screen shows while
  /// ``breeds`` asks the network.
  public var savedBreeds: @Sendable () -> BreedList?

  /// Creates a client from its endpoints.
  public init(
    breeds: @escaping @Sendable () async throws(DogAPIError) -> BreedList,
    randomImage:
      @escaping @Sendable (_ breed: String, _ subBreed: String?) async throws(DogAPIError) ->
      URL,
    images:
      @escaping @Sendable (_ breed: String, _ subBreed: String?) async throws(DogAPIError) ->
      [URL],
    imageData: @escaping @Sendable (_ url: URL) async throws(DogAPIError) -> Data,
    savedBreeds: @escaping @Sendable () -> BreedList? = { nil }
  ) {
    self.breeds = breeds
    self.randomImage = randomImage
    self.images = images
    self.imageData = imageData
    self.savedBreeds = savedBreeds
  }
}

extension DogAPIClient {
  /// A client whose every endpoint fails the current test, naming itself
  /// ("unimplemented: DogAPIClient.breeds"), and throws ``DogAPIError/unimplemented(endpoint:)``.
  ///
  /// The default for tests: a call the test did not plan for is a failure, not a
  /// silent success.
  public static let failing = DogAPIClient(
    breeds: { () async throws(DogAPIError) -> BreedList in
      throw unimplemented("DogAPIClient.breeds")
    },
    randomImage: { (_, _) async throws(DogAPIError) -> URL in
      throw unimplemented("DogAPIClient.randomImage")
    },
    images: { (_, _) async throws(DogAPIError) -> [URL] in
      throw unimplemented("DogAPIClient.images")
    },
    imageData: { (_) async throws(DogAPIError) -> Data in
      throw unimplemented("DogAPIClient.imageData")
    }
  )

  private static func unimplemented(
    _ endpoint: String, fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) -> DogAPIError {
    reportIssue(
      "unimplemented: \(endpoint)", fileID: fileID, filePath: filePath, line: line, column: column)
    return .unimplemented(endpoint: endpoint)
  }
}
