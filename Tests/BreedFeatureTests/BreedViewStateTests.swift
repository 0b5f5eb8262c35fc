import BreedFeature
import Core
import CoreTesting
import DogAPIClient
import Foundation
import ImageDecoding
import Synchronization
import TestSupport
import Testing
import TextRendering

struct BreedViewStateTests {
  @Test func titleAndSubBreedsAreCapitalisedWithAHeadingOnlyWhenThereAreAny() {
    let view = BreedFeature.ViewState(
      BreedFeature.State(breed: hound, subBreed: "basset", imageURL: .loaded(url1)))
    #expect(view.title == "Hound")
    #expect(view.header == "Hound › Basset")
    #expect(BreedFeature.ViewState(BreedFeature.State(breed: hound)).header == "Hound")
    #expect(view.subtitle == "Sub-breeds")
    #expect(view.subBreeds.map(\.title) == ["Afghan", "Basset"])
    #expect(view.subBreeds.map(\.isShown) == [false, true])
    #expect(view.subject == "Basset Hound")
    #expect(view.imageURL == .url(url1.absoluteString))
    let pug = BreedFeature.ViewState(BreedFeature.State(breed: Breed(name: "pug")))
    #expect(pug.subtitle == nil)
    #expect(pug.subBreeds.isEmpty)
  }

  @Test func imageStatusText() {
    #expect(BreedFeature.ViewState(BreedFeature.State(breed: hound)).imageURL == .loading)
    #expect(BreedFeature.ViewState(BreedFeature.State(breed: hound, imageURL: .loading)).imageURL == .loading)
    #expect(
      BreedFeature.ViewState(BreedFeature.State(breed: hound, imageURL: .failed(.notFound(message: nil))))
        .imageURL
        == .failed(message: "Couldn't load a picture of Hound. The API has no such breed.", canRetry: false))
    #expect(
      BreedFeature.ViewState(BreedFeature.State(breed: hound, imageURL: .failed(.timedOut(seconds: 10))))
        .imageURL
        == .failed(
          message: "Couldn't load a picture of Hound. The server took longer than 10 s to answer.",
          canRetry: true))
    // After Enter on a sub-breed, the failure names it.
    #expect(
      BreedFeature.ViewState(
        BreedFeature.State(breed: hound, subBreed: "afghan", imageURL: .failed(.timedOut(seconds: 10)))
      ).imageURL
        == .failed(
          message: "Couldn't load a picture of Afghan Hound. The server took longer than 10 s to answer.",
          canRetry: true))
  }
}
