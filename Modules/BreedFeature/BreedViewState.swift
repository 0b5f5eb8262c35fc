import DogAPIClient
import Foundation
import ImageDecoding
import TextRendering

extension BreedFeature {
  /// What the Breed screen shows, derived from ``State`` by a pure converter.
  public struct ViewState: Equatable, Sendable {
    /// The breed's name with its first letter upper-cased: "Hound".
    public var title: String
    /// Where the screen is, as its header says: the breed's title, "Hound", and on a
    /// sub-breed's screen the sub-breed's after it, "Hound › Afghan".
    public var header: String
    /// Whether the user starred what the screen shows: the breed, or the sub-breed.
    public var isFavourite = false
    /// "Sub-breeds" when there are any, else `nil` (no heading at all).
    public var subtitle: String?
    /// The sub-breeds, first letters upper-cased.
    public var subBreeds: [SubBreedRow]
    /// Whose picture is shown: "Hound", or "Afghan Hound" for a sub-breed.
    public var subject: String
    /// The picture area.
    public var imageURL: ImageURL
    /// Which of the pictures of what is shown this is, where they are known: "3 of 213".
    public var position: String?
    /// The decoded picture, when there is one: an animation's frame shown.
    public var picture: RGBImage?
    /// What happened to the picture, when it is not shown: "Loading the picture…" or why
    /// it failed.
    public var pictureNote: String?
    /// While another picture is fetched over the one shown, or after that failed: which,
    /// shown under the picture that stays.
    public var another: Another?
    /// Whether `r` may help: after a failure to fetch, download or decode a picture that
    /// asking again may mend.
    public var offersRetry = false

    /// Another picture over the one shown.
    public enum Another: Equatable, Sendable {
      /// On its way.
      case loading
      /// It could not be had: why.
      case failed(String)
    }

    /// What the picture area shows.
    public enum ImageURL: Equatable, Sendable {
      /// Fetching: a placeholder that says so.
      case loading
      /// The picture's address.
      case url(String)
      /// Fetching failed: what went wrong, and whether trying again may help (not for a
      /// breed the API does not know or a name it would refuse).
      case failed(message: String, canRetry: Bool)
    }

    /// One sub-breed in the list.
    public struct SubBreedRow: Equatable, Sendable, Identifiable {
      /// The API name: "afghan".
      public var name: String
      /// As shown: "Afghan".
      public var title: String
      /// Whether its picture is the one shown.
      public var isShown: Bool
      /// Whether the keyboard highlight is on it.
      public var isHighlighted: Bool
      /// Whether the user starred it.
      public var isFavourite = false
      /// The API name.
      public var id: String { name }
    }

    /// "3 of 213" for the third of 213 pictures, or `nil` where `url` is not among them.
    static func position(of url: URL, in all: [URL]?) -> String? {
      guard let all, let index = all.firstIndex(of: url) else { return nil }
      return "\(index + 1) of \(all.count)"
    }

    /// Builds the view state.
    public init(_ state: State) {
      let title = String.breedName(state.breed.name)
      self.title = title
      header = state.subBreed.map { "\(title) › \(String.breedName($0))" } ?? title
      isFavourite = state.favourites.contains(state.shownFavouriteID)
      subtitle = state.breed.subBreeds.isEmpty ? nil : "Sub-breeds"
      subBreeds = state.breed.subBreeds.map { name in
        SubBreedRow(
          name: name, title: String.breedName(name), isShown: name == state.subBreed,
          isHighlighted: name == state.highlighted,
          isFavourite: state.favourites.contains(BreedName.path(state.breed.name, name)))
      }
      let subject = String.breedTitle(state.breed.name, subBreed: state.subBreed)
      self.subject = subject
      // A retry that failed again says how many tries it has been.
      let tries = String.tries(state.failures, last: state.lastFailure)
      switch state.imageURL {
      case .notRequested, .loading: imageURL = .loading
      case .loaded(let url):
        imageURL = .url(url.absoluteString)
        position = Self.position(of: url, in: state.imageURLs)
      case .failed(let error):
        // Whose picture: after Enter on a sub-breed, the failure is that one's.
        imageURL = .failed(
          message: "Couldn't load a picture of \(subject). \(error.message)\(tries)",
          canRetry: error.isTransient)
        offersRetry = error.isTransient
      }
      switch state.picture {
      case .none: picture = nil
      case .loading:
        picture = nil
        pictureNote = "Loading the picture…"
      case .loaded(let image): picture = image
      case .animated(let playback): picture = playback.image
      case .failed(let error):
        picture = nil
        pictureNote = error.message + tries
        offersRetry = true
      }
      // Another picture on its way, or one that failed, leaves the one shown on screen.
      guard let kept = state.kept, picture == nil else { return }
      switch (imageURL, pictureNote) {
      case (.loading, _), (.url, "Loading the picture…"): another = .loading
      case (.failed(let message, _), _): another = .failed(message)
      case (.url, let note?): another = .failed("Couldn't show another picture. \(note)")
      case (.url, nil): return
      }
      imageURL = .url(kept.url.absoluteString)
      position = Self.position(of: kept.url, in: state.imageURLs)
      picture = kept.picture
      pictureNote = nil
    }
  }
}
