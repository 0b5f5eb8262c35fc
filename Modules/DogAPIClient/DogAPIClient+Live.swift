import Foundation
import Synchronization

extension DogAPIClient {
  /// The public API's base URL.
  public static let defaultBaseURL = URL(string: "https://dog.ceo/api")!

  /// How the live client talks to the API.
  public struct Configuration: Sendable {
    /// The API root, e.g. `https://dog.ceo/api` (no trailing slash needed).
    public var baseURL: URL
    /// The most a request may take from start to last byte.
    public var timeout: Duration
    /// The largest JSON answer accepted.
    public var maxJSONBytes: Int
    /// The largest image accepted.
    public var maxImageBytes: Int
    /// Where the breed list is cached for offline use; `nil` disables the cache.
    public var cache: BreedListCache?
    /// Whether the breed list falls back to the bundled snapshot when the network and
    /// the cache both fail.
    public var usesBundledFallback: Bool
    /// Make no requests: the breed list comes from the cache, then the snapshot, and
    /// image requests fail with ``DogAPIError/offline``.
    public var offline: Bool
    /// Fetch with URLSession even where the client drives libcurl itself (Linux): for
    /// tests of the transport other platforms use.
    var usesURLSession = false
    /// Sent with every request.
    public var userAgent: String

    /// A configuration with sensible defaults: 10 s timeout, 1 MB of JSON, 10 MB per
    /// image, no cache, bundled fallback on.
    public init(
      baseURL: URL = DogAPIClient.defaultBaseURL,
      timeout: Duration = .seconds(10),
      maxJSONBytes: Int = 1 << 20,
      maxImageBytes: Int = 10 << 20,
      cache: BreedListCache? = nil,
      usesBundledFallback: Bool = true,
      offline: Bool = false,
      userAgent: String = "DogBreeds/0.1 (Swift; +https://dog.ceo/dog-api/)"
    ) {
      self.baseURL = baseURL
      self.timeout = timeout
      self.maxJSONBytes = maxJSONBytes
      self.maxImageBytes = maxImageBytes
      self.cache = cache
      self.usesBundledFallback = usesBundledFallback
      self.offline = offline
      self.userAgent = userAgent
    }
  }

  /// The real client: on Linux it drives libcurl itself, elsewhere URLSession.
  ///
  /// The breed list is offline-first: a successful fetch is written to the cache; when
  /// the fetch fails for any reason, the cached list is returned (marked `.cache`), else
  /// the bundled snapshot (marked `.bundled`), each with the reason in
  /// ``BreedList/fallbackReason``. Only when neither is allowed does `breeds` throw.
  ///
  /// - Parameter configuration: Base URL, limits, cache.
  /// - Returns: The client.
  public static func live(_ configuration: Configuration = Configuration()) -> DogAPIClient {
    let base =
      configuration.baseURL.absoluteString.hasSuffix("/")
      ? String(configuration.baseURL.absoluteString.dropLast()) : configuration.baseURL.absoluteString
    let recent = RecentPictures()
    @Sendable func getJSON(_ path: String) async throws(DogAPIError) -> HTTPResponse {
      guard !configuration.offline else { throw .offline }
      guard let url = URL(string: base + path) else { throw .invalidURL(base + path) }
      return try await HTTPFetcher.get(
        url, accept: "application/json", limit: configuration.maxJSONBytes,
        timeout: configuration.timeout, userAgent: configuration.userAgent,
        usesURLSession: configuration.usesURLSession)
    }
    /// The API path of a breed's or sub-breed's pictures, its names checked first.
    @Sendable func picturesPath(_ breed: String, _ subBreed: String?) throws(DogAPIError) -> String {
      guard BreedName.isValid(breed) else { throw .invalidBreedName(breed) }
      guard let subBreed else { return "/breed/\(breed)/images" }
      guard BreedName.isValid(subBreed) else { throw .invalidBreedName(subBreed) }
      return "/breed/\(breed)/\(subBreed)/images"
    }
    @Sendable func images(_ breed: String, _ subBreed: String?) async throws(DogAPIError) -> [URL] {
      let response = try await getJSON(try picturesPath(breed, subBreed))
      return try ResponseDecoding.imageURLs(status: response.status, body: response.body)
        .filter { ResponseDecoding.isPicture($0, of: breed, subBreed: subBreed) }
    }

    return DogAPIClient(
      breeds: { () async throws(DogAPIError) -> BreedList in
        do throws(DogAPIError) {
          let response = try await getJSON("/breeds/list/all")
          // Names that are not breed names (`../../tmp/evil`, control characters) are left
          // out, counted: listed, they would sort first and take the highlight.
          let (breeds, leftOut) = BreedName.keepingValid(
            try ResponseDecoding.breeds(status: response.status, body: response.body))
          let now = Date()
          // An empty answer is shown ("No breeds") but not saved over the list saved before,
          // which an offline run would then no longer have.
          if !breeds.isEmpty { try? configuration.cache?.save(breeds, fetchedAt: now) }
          return BreedList(breeds: breeds, source: .network, fetchedAt: now, leftOutNames: leftOut)
        } catch {
          if error == .cancelled { throw error }
          if var cached = configuration.cache?.load() {
            cached.fallbackReason = error
            return cached
          }
          guard configuration.usesBundledFallback else { throw error }
          var bundled = DogAPIClient.bundledBreedList
          bundled.fallbackReason = error
          return bundled
        }
      },
      randomImage: { (breed, subBreed) async throws(DogAPIError) -> URL in
        let path = try picturesPath(breed, subBreed)
        // The API picks by name prefix: `pug`'s random picture is often a puggle's. A
        // picture from another breed's folder is asked for again, a few times, and then
        // chosen from the breed's whole list, where the folder decides.
        for _ in 0..<3 {
          let response = try await getJSON(path + "/random")
          let url = try ResponseDecoding.imageURL(status: response.status, body: response.body)
          if ResponseDecoding.isPicture(url, of: breed, subBreed: subBreed) { return url }
        }
        guard let url = try await images(breed, subBreed).randomElement() else {
          throw .notFound(
            message: "the API lists no picture of \(BreedName.path(breed, subBreed))")
        }
        return url
      },
      images: images,
      imageData: { (url) async throws(DogAPIError) -> Data in
        guard ResponseDecoding.webURL(url.absoluteString) != nil else {
          throw .invalidURL(url.absoluteString)
        }
        // The picture on screen is decoded again when the terminal grows: from the bytes
        // kept, not downloaded again.
        if let kept = recent.bytes(of: url) { return kept }
        guard !configuration.offline else { throw .offline }
        let response = try await HTTPFetcher.get(
          url, accept: "image/*", limit: configuration.maxImageBytes,
          timeout: configuration.timeout, userAgent: configuration.userAgent,
          usesURLSession: configuration.usesURLSession)
        guard (200..<300).contains(response.status) else {
          throw .server(status: response.status, message: nil)
        }
        recent.keep(response.body, of: url)
        return response.body
      },
      savedBreeds: { configuration.cache?.load() }
    )
  }

  /// The snapshot of the real breed list compiled into the binary, marked `.bundled`.
  /// Parsed once, on first use (the fake client reads it on every request).
  public static let bundledBreedList: BreedList = {
    // The literal is checked by a test; a broken literal would be a build mistake.
    let breeds = (try? ResponseDecoding.breeds(status: 200, body: Data(BundledBreedList.json.utf8))) ?? []
    return BreedList(breeds: breeds, source: .bundled)
  }()
}

/// The last pictures a live client downloaded, by address: the one on screen is decoded
/// again at a new size from these bytes. A few, so that memory stays small.
final class RecentPictures: Sendable {
  /// How many pictures are kept.
  static let count = 2
  private let pictures = Mutex<[(url: URL, bytes: Data)]>([])

  /// The bytes downloaded from `url`, if they are kept.
  func bytes(of url: URL) -> Data? { pictures.withLock { $0.first { $0.url == url }?.bytes } }

  /// Keeps `bytes` as `url`'s, in place of the oldest kept.
  func keep(_ bytes: Data, of url: URL) {
    pictures.withLock {
      $0.removeAll { $0.url == url }
      $0.append((url, bytes))
      if $0.count > Self.count { $0.removeFirst() }
    }
  }
}
