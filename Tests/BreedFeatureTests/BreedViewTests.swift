import BreedFeature
import DogAPIClient
import Foundation
import ImageDecoding
import Testing
import TextRendering

struct BreedViewTests {
  func screen(_ state: BreedFeature.State, _ width: Int, _ height: Int) -> String {
    BreedView.render(BreedFeature.ViewState(state), width: width, height: height).text
  }

  /// From 100 columns the sub-breeds sit beside the picture: all 25 of a breed at 100×30
  /// (under it, 7 would show), the picture as large as its columns allow.
  @Test(arguments: [(100, 30), (200, 60)])
  func onAWideScreenTheSubBreedsSitBesideThePicture(width: Int, height: Int) {
    let names = (0..<25).map { "sub" + String(UnicodeScalar(UInt8(97 + $0))) }
    let picture = RGBImage(width: 400, height: 300, pixels: [UInt8](repeating: 90, count: 400 * 300 * 3))
    let state = BreedFeature.State(
      breed: Breed(name: "terrier", subBreeds: names), imageURL: .loaded(url1), picture: .loaded(picture))
    let lines = BreedView.render(BreedFeature.ViewState(state), width: width, height: height).pictureMarked
    let column = width * 3 / 5 + 1
    #expect(lines[2].dropFirst(column).hasPrefix("Sub-breeds"))
    for (row, name) in names.enumerated() {
      #expect(lines[3 + row].dropFirst(column).contains("Sub" + name.dropFirst(3)), "\(name)")
    }
    // The picture on the left, as wide as its columns (a 4:3 picture, in whole cells).
    let pictureRows = lines.filter { $0.hasPrefix("▀") }
    let fitted = PictureRenderer.fittedSize(picture, columns: width * 3 / 5, rows: height - 3, symbols: .auto)
    // Within a column of as wide as its columns: whole cells in its shape.
    #expect(fitted.columns >= width * 3 / 5 - 1 && fitted.columns <= width * 3 / 5)
    #expect(pictureRows.count == fitted.rows, "\(lines.joined(separator: "\n"))")
    #expect(lines.contains { $0.hasPrefix(url1.absoluteString) })
    // Narrower, they are under it.
    let narrow = screen(state, 99, height).split(separator: "\n")
    #expect(narrow.contains("Sub-breeds"))
  }

  @Test func withSubBreedsAt80x24() {
    #expect(
      screen(BreedFeature.State(breed: hound, imageURL: .loaded(url1), highlighted: "basset"), 80, 24) == """
        Hound
        ────────────────────────────────────────────────────────────────────────────────
        Picture of Hound: https://images.dog.ceo/breeds/hound/1.jpg

        Sub-breeds
          Afghan
        ▶ Basset
        """)
  }

  /// Where the breed's pictures are known, the screen says which of them is shown: by
  /// the address, and under the picture.
  @Test func whichOfTheBreedsPicturesIsShown() {
    var state = BreedFeature.State(
      breed: Breed(name: "pug"), imageURL: .loaded(url2), imageURLs: [url1, url2, afghanURL])
    #expect(
      screen(state, 80, 5) == """
        Pug
        ────────────────────────────────────────────────────────────────────────────────
        Picture of Pug (2 of 3): https://images.dog.ceo/breeds/hound/2.jpg
        """)
    state.picture = .loaded(
      RGBImage(width: 40, height: 30, pixels: [UInt8](repeating: 90, count: 40 * 30 * 3)))
    let lines = screen(state, 80, 24).split(separator: "\n")
    #expect(lines.last == "2 of 3 · https://images.dog.ceo/breeds/hound/2.jpg", "\(lines)")
  }

  @Test func withoutSubBreedsThereIsNoHeading() {
    #expect(
      screen(BreedFeature.State(breed: Breed(name: "pug"), imageURL: .loading), 40, 12) == """
        Pug
        ────────────────────────────────────────
        ⠋ Fetching a picture of Pug…
        """)
  }

  @Test func aFailureAt40x12OffersToTryAgain() {
    #expect(
      screen(BreedFeature.State(breed: Breed(name: "pug"), imageURL: .failed(.timedOut(seconds: 10))), 40, 12)
        == """
        Pug
        ────────────────────────────────────────
        Couldn't load a picture of Pug. The
        server took longer than 10 s to answer.
        Press r to try again.
        """)
  }

  /// A server's failure takes at most two rows at 40×12, and the sub-breeds keep theirs.
  @Test func aServerFailureAt40x12KeepsTheSubBreedsOnScreen() {
    let quoted =
      "Server error: `GET https://images.dog.ceo/breeds/hound/list` resulted in a `502 Bad Gateway` response"
    let long = String(repeating: "Something went wrong here. ", count: 4)
    for message in [quoted, long] {
      let hounds = Breed(
        name: "hound", subBreeds: ["afghan", "basset", "blood", "english", "ibizan", "plott", "walker"])
      let state = BreedFeature.State(breed: hounds, imageURL: .failed(.server(status: 500, message: message)))
      let lines = screen(state, 40, 11).split(separator: "\n", omittingEmptySubsequences: false)
      #expect(lines[2] == "Couldn't load a picture of Hound. The")
      #expect(lines[3].hasPrefix("server had an error (HTTP 500)"))
      #expect(lines[4] == "Press r to try again.")
      #expect(lines[6] == "Sub-breeds")
      #expect(lines[7...].filter { !$0.isEmpty }.count == 4, "\(lines.joined(separator: "\n"))")
    }
  }

  @Test func aFailureThatRetryingCannotMendDoesNotOfferIt() {
    #expect(
      screen(
        BreedFeature.State(breed: Breed(name: "pug"), imageURL: .failed(.notFound(message: nil))), 40, 12)
          == """
          Pug
          ────────────────────────────────────────
          Couldn't load a picture of Pug. The API
          has no such breed.
          """)
  }

  @Test func theSubBreedWhosePictureIsShownIsMarked() {
    let state = BreedFeature.State(
      breed: hound, subBreed: "afghan", imageURL: .loaded(url1), highlighted: "basset")
    #expect(screen(state, 80, 24).split(separator: "\n").suffix(2) == ["  Afghan  (shown)", "▶ Basset"])
  }

  /// A picture on its way spins below its address.
  @Test func aPictureBeingLoadedSpinsBelowItsAddress() {
    let state = BreedFeature.State(breed: Breed(name: "pug"), imageURL: .loaded(url1), picture: .loading)
    #expect(screen(state, 80, 6).split(separator: "\n")[3] == "⠋ Loading the picture…")
  }

  @Test func whyAPictureIsMissingWrapsRatherThanBeingCut() {
    let state = BreedFeature.State(
      breed: Breed(name: "pug"), imageURL: .loaded(url1),
      picture: .failed(.download(.server(status: 404, message: nil))))
    let note = BreedFeature.ViewState(state).pictureNote ?? ""
    let lines = screen(state, 40, 12).split(separator: "\n").dropFirst(3)
    #expect(lines.count > 2)
    #expect(lines.dropLast().joined(separator: " ") == note)
    #expect(lines.last == "Press r to try again.")
  }

  @Test func anAddressTooLongForItsLabelIsShownWholeWithoutIt() {
    // A sub-breed's real address and its label take 86 columns.
    let url = URL(string: "https://images.dog.ceo/breeds/hound-afghan/n02088094_1003.jpg")!
    let state = BreedFeature.State(breed: hound, subBreed: "afghan", imageURL: .loaded(url))
    #expect(screen(state, 80, 8).split(separator: "\n")[2] == "\(url)")
    #expect(screen(state, 86, 8).split(separator: "\n")[2] == "Picture of Afghan Hound: \(url)")
  }

  /// The screen fills its height whatever it shows, so that what an app puts below it
  /// (AppFeature's key hints) sits on the last row.
  @Test func theScreenFillsItsHeightWhateverItShows() {
    let pug = Breed(name: "pug")
    for state in [
      BreedFeature.State(breed: pug, imageURL: .loading),
      BreedFeature.State(breed: pug, imageURL: .loaded(url1)),
      BreedFeature.State(breed: pug, imageURL: .failed(.timedOut(seconds: 10))),
      BreedFeature.State(breed: hound, imageURL: .loaded(url1)),
    ] {
      let screen = BreedView.body(BreedFeature.ViewState(state), width: 40, height: 11)
      let frame = Layout.render(.stack([screen, .text("below")]), width: 40, height: 12)
      #expect(frame.lines[11].hasPrefix("below"), "\(state.imageURL)")
    }
  }

  @Test func aURLFromTheNetworkIsSanitisedOnScreen() {
    let evil = URL(string: "https://images.dog.ceo/x%1B%5B2J.jpg")!
    let text = screen(BreedFeature.State(breed: Breed(name: "pug"), imageURL: .loaded(evil)), 80, 5)
    #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
  }
}

struct BreedPictureViewTests {
  @Test func aLoadedPictureIsDrawnAboveItsAddressAndAShortSubBreedList() {
    var pixels: [UInt8] = []
    for _ in 0..<(8 * 6) { pixels += [200, 120, 40] }
    let picture = RGBImage(width: 8, height: 6, pixels: pixels)
    let state = BreedFeature.State(breed: hound, imageURL: .loaded(url1), picture: .loaded(picture))
    let frame = BreedView.render(BreedFeature.ViewState(state), width: 40, height: 16, pictureMode: .blocks)
    let lines = frame.pictureMarked
    #expect(lines[0] == "Hound")
    #expect(lines[2].contains("▀"))
    #expect(lines.contains("https://images.dog.ceo/breeds/hound/1.j…"))
    #expect(lines.suffix(3) == ["Sub-breeds", "  Afghan", "  Basset"])
    let plain = BreedView.render(BreedFeature.ViewState(state), width: 40, height: 16, pictureMode: .none)
    #expect(!plain.pictureMarked.joined().contains("▀"))
    #expect(plain.lines[2] == "https://images.dog.ceo/breeds/hound/1.j…")  // 40 columns
  }

  @Test func onAShortScreenTheSubBreedListGivesWayToThePicture() {
    var pixels: [UInt8] = []
    for _ in 0..<(8 * 6) { pixels += [200, 120, 40] }
    let breed = Breed(name: "hound", subBreeds: ["afghan", "basset", "blood", "english", "ibizan", "plott"])
    let state = BreedFeature.State(
      breed: breed, imageURL: .loaded(url1), picture: .loaded(RGBImage(width: 8, height: 6, pixels: pixels)))
    let short = BreedView.render(BreedFeature.ViewState(state), width: 40, height: 11).pictureMarked
    #expect(short[2...5].allSatisfy { $0.contains("▀") }, "four rows of picture")
    #expect(short[8] == "Sub-breeds" && short[9].hasPrefix("  Afghan ") && short[10] == "  Basset")
    #expect(short[9].hasSuffix("┃"), "the list scrolls")
    // Shorter still, the list keeps its two rows and the picture gives up one.
    let shorter = BreedView.render(BreedFeature.ViewState(state), width: 40, height: 10).pictureMarked
    #expect(shorter[2...4].allSatisfy { $0.contains("▀") }, "three rows of picture")
    #expect(shorter[7] == "Sub-breeds" && shorter[8].hasPrefix("  Afghan ") && shorter[9] == "  Basset")
    // The shortest screen with a picture (two rows and its address), then one row less.
    let lowest = BreedView.render(BreedFeature.ViewState(state), width: 40, height: 9).pictureMarked
    #expect(lowest[2...3].allSatisfy { $0.contains("▀") } && !lowest[4].contains("▀"), "two rows of picture")
    #expect(lowest[6] == "Sub-breeds" && lowest[7].hasPrefix("  Afghan ") && lowest[8] == "  Basset")
    let below = BreedView.render(BreedFeature.ViewState(state), width: 40, height: 8).pictureMarked
    #expect(!below.joined().contains("▀"), "\(below)")
    #expect(below[4] == "Sub-breeds" && below[7] == "  Blood", "the list has the rest: \(below)")
    // Too short for two rows of picture and its address: the address shows, as it does
    // without pictures, and the list has the rest.
    let tiny = BreedView.render(BreedFeature.ViewState(state), width: 40, height: 7).pictureMarked
    #expect(!tiny.joined().contains("▀"))
    #expect(tiny[2] == "https://images.dog.ceo/breeds/hound/1.j…")  // no room for its label
    #expect(tiny[4...] == ["Sub-breeds", "  Afghan                               ┃", "  Basset"])
    let pug = BreedFeature.State(
      breed: Breed(name: "pug", subBreeds: []), imageURL: .loaded(url1),
      picture: .loaded(RGBImage(width: 8, height: 6, pixels: pixels)))
    #expect(
      BreedView.render(BreedFeature.ViewState(pug), width: 60, height: 4).pictureMarked[2]
        == "Picture of Pug: https://images.dog.ceo/breeds/hound/1.jpg")
    #expect(
      BreedView.render(BreedFeature.ViewState(pug), width: 60, height: 5).pictureMarked[2].contains("▀"))
    // With room to spare the list shows six rows, or a quarter of a tall screen.
    let tall = BreedView.render(BreedFeature.ViewState(state), width: 40, height: 24).pictureMarked
    #expect(tall.contains("  Plott"))
    var hound = state
    hound.breed.subBreeds.append("walker")
    let seven = BreedFeature.ViewState(hound)
    #expect(!BreedView.render(seven, width: 40, height: 24).pictureMarked.contains("  Walker"))
    #expect(!BreedView.render(seven, width: 40, height: 27).pictureMarked.contains("  Walker"))
    let whole = BreedView.render(seven, width: 40, height: 28).pictureMarked
    #expect(whole.contains("  Walker") && !whole.joined().contains("┃"), "\(whole)")
    #expect(whole.contains { $0.contains("▀") })
  }
}

extension Frame {
  /// Its lines, each cell with a background colour (a picture's: the views colour no
  /// other) shown as `▀`, whatever glyph the picture drew there.
  var pictureMarked: [String] {
    (0..<height).map { y in
      var text = ""
      for x in 0..<width where self[x, y].width > 0 {
        text.append(self[x, y].style.background == nil ? self[x, y].character : "▀")
      }
      while text.last == " " { text.removeLast() }
      return text
    }
  }
}
