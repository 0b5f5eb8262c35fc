import Core
import DogAPIClient
import ImageDecoding

/// One row of the Favourites tab: a starred breed or sub-breed and its thumbnail, which
/// the row loads by itself (a random picture of it, downloaded and decoded small).
///
/// The tab runs one of these per favourite with `forEach`, so each row's load is its own
/// effect: removing the row (un-starring it) cancels it, and so does the row going far out
/// of view.
public struct FavouriteRow: Reducer {
  // MARK: State

  /// A row's state.
  public struct State: Equatable, Identifiable, Sendable {
    /// The favourite's API name: `hound`, or `hound/afghan` for a sub-breed.
    public let id: String
    /// Where its thumbnail stands.
    public var thumbnail: Thumbnail

    /// Creates a row whose thumbnail has not been asked for.
    public init(id: String, thumbnail: Thumbnail = .notLoaded) {
      self.id = id
      self.thumbnail = thumbnail
    }

    /// The breed's API name: `hound`.
    public var breed: String { BreedName.parts(ofPath: id).breed }
    /// The sub-breed's API name (`afghan`), or `nil` for a breed.
    public var subBreed: String? { BreedName.parts(ofPath: id).subBreed }
  }

  /// Where a row's thumbnail stands.
  public enum Thumbnail: Equatable, Sendable {
    /// Not asked for (far from view, or pictures are off).
    case notLoaded
    /// Its address or bytes are on the way.
    case loading
    /// Decoded, ready to draw.
    case loaded(RGBImage)
    /// It could not be had: why, in one short sentence.
    case failed(String)
  }

  // MARK: Action

  /// What can happen to a row.
  public enum Action: Equatable, Sendable, Codable {
    /// The row came near the screen: its thumbnail loads, unless it has.
    case cameIntoView
    /// The row went far out of view: a load still in flight stops.
    case wentOutOfView
    /// The thumbnail arrived, or could not be had.
    case thumbnailResponse(Result<RGBImage, ThumbnailError>)
  }

  /// Why a thumbnail could not be had.
  public struct ThumbnailError: Error, Equatable, Sendable, Codable {
    /// One short sentence.
    public var message: String
    /// Creates the error.
    public init(_ message: String) { self.message = message }
  }

  // MARK: Dependencies

  let client: DogAPIClient
  /// The fewest pixels a thumbnail is decoded to; `nil`: no thumbnails, nothing loaded.
  let thumbnailSize: (width: Int, height: Int)?

  /// Creates the row feature.
  ///
  /// - Parameters:
  ///   - client: The API the pictures come from.
  ///   - thumbnailSize: The fewest pixels each way a thumbnail is decoded to, or `nil` for
  ///     rows without thumbnails.
  public init(client: DogAPIClient, thumbnailSize: (width: Int, height: Int)?) {
    self.client = client
    self.thumbnailSize = thumbnailSize
  }

  enum CancelID { case thumbnail }

  // MARK: Reducer

  /// Loads the thumbnail when the row comes into view, once; stops a load when it leaves.
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .cameIntoView:
      guard let size = thumbnailSize, state.thumbnail == .notLoaded else { return .none }
      state.thumbnail = .loading
      let client = client
      let breed = state.breed
      let subBreed = state.subBreed
      return .run { send in
        await send(
          .thumbnailResponse(await Self.thumbnail(of: breed, subBreed, client: client, fitting: size)))
      }
      .cancellable(id: CancelID.thumbnail)

    case .wentOutOfView:
      guard state.thumbnail == .loading else { return .none }
      state.thumbnail = .notLoaded
      return .cancel(id: CancelID.thumbnail)

    case .thumbnailResponse(.success(let picture)):
      state.thumbnail = .loaded(picture)
      return .none

    case .thumbnailResponse(.failure(let error)):
      state.thumbnail = .failed(error.message)
      return .none
    }
  }

  /// A random picture of the breed or sub-breed, downloaded and decoded to at least `size`.
  private static func thumbnail(
    of breed: String, _ subBreed: String?, client: DogAPIClient, fitting size: (width: Int, height: Int)
  ) async -> Result<RGBImage, ThumbnailError> {
    do throws(DogAPIError) {
      let url = try await client.randomImage(breed, subBreed)
      let bytes = [UInt8](try await client.imageData(url))
      do throws(ImageDecodingError) {
        return .success(try ImageDecoder.decode(bytes, fitting: size))
      } catch {
        return .failure(ThumbnailError("No picture: \(error.message)"))
      }
    } catch {
      return .failure(ThumbnailError("No picture: \(error.message)"))
    }
  }
}
