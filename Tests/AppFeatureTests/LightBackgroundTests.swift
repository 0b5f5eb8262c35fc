import AppFeature
import BreedFeature
import Core
import DogAPIClient
import DogsFeature
import Foundation
import ImageDecoding
import Testing
import TextRendering

/// On a terminal whose background is light (white, as `xterm -bg white`), every screen's
/// text stays legible: no text is drawn on the terminal's own background in a colour that
/// vanishes on white.
struct LightBackgroundTests {
  /// Whether text in `colour` on a white background can be read: the terminal's own
  /// foreground (`nil`, which a light terminal sets dark) can; of the system colours, not
  /// white, bright white, yellow, bright yellow, bright green or bright cyan (pale in
  /// common palettes); any other colour if its contrast with white is 3 : 1 or more, as
  /// WCAG asks of large text.
  static func isLegibleOnWhite(_ colour: Color?) -> Bool {
    func contrast(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Double {
      func linear(_ v: UInt8) -> Double {
        let c = Double(v) / 255
        return c <= 0.040_45 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
      }
      let luminance = 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)
      return 1.05 / (luminance + 0.05)
    }
    switch colour {
    case nil: return true
    case .ansi(let code)?: return ![3, 7, 10, 11, 14, 15].contains(code)
    case .indexed(let index)?:
      guard index >= 16 else { return isLegibleOnWhite(.ansi(index)) }
      let (r, g, b) = Palette.rgb(of: index)
      return contrast(r, g, b) >= 3
    case .rgb(let r, let g, let b)?: return contrast(r, g, b) >= 3
    }
  }

  /// The measure itself tells the colours apart.
  @Test func theMeasureRejectsPaleColours() {
    #expect(!Self.isLegibleOnWhite(.white) && !Self.isLegibleOnWhite(.yellow))
    #expect(!Self.isLegibleOnWhite(.ansi(15)) && !Self.isLegibleOnWhite(.indexed(230)))
    #expect(!Self.isLegibleOnWhite(.rgb(250, 250, 210)))
    #expect(Self.isLegibleOnWhite(nil) && Self.isLegibleOnWhite(.red) && Self.isLegibleOnWhite(.blue))
    #expect(Self.isLegibleOnWhite(.rgb(40, 40, 40)) && Self.isLegibleOnWhite(.indexed(238)))
  }

  /// The cells of `frame` whose text sits on the terminal's own background in a colour
  /// that vanishes on white, described for a failure's message.
  static func illegible(_ frame: Frame) -> [String] {
    var found: [String] = []
    for (index, cell) in frame.cells.enumerated()
    where cell.character != " " && cell.style.background == nil && !cell.style.reverse
      && !isPictureDot(cell.character)
      && !isLegibleOnWhite(cell.style.foreground)
    {
      found.append("\(cell.character) at \(index % frame.width),\(index / frame.width): \(cell.style)")
    }
    return found
  }

  /// Whether `character` is a block element (U+2580–U+259F): a picture's half block on the
  /// terminal's background (its last row, of an odd count) is the picture's own colour,
  /// not text.
  static func isPictureDot(_ character: Character) -> Bool {
    character.unicodeScalars.allSatisfy { (0x2580...0x259F).contains($0.value) }
  }

  static let picture: RGBImage = {
    var pixels: [UInt8] = []
    for index in 0..<(40 * 30) {
      let (x, y) = (index % 40, index / 40)
      pixels += [UInt8(x * 6), UInt8(y * 8), 250]
    }
    return RGBImage(width: 40, height: 30, pixels: pixels)
  }()

  /// The app's screens: the list, loading and failed; a breed with its picture and without;
  /// an error notice; the help; an alert.
  static var screens: [(String, AppFeature.State)] {
    let url = URL(string: "https://images.dog.ceo/breeds/hound/x.jpg")!
    let breed = BreedFeature.State(
      breed: list.breeds[1], imageURL: .loaded(url), picture: .loaded(picture), favourites: ["hound"])
    let failedPicture = BreedFeature.State(
      breed: list.breeds[1], imageURL: .failed(.timedOut(seconds: 10)))
    var withNotice = AppFeature.State(breeds: list, dogsStatus: .loaded, dogsHighlighted: "hound")
    withNotice.notice = "Could not save favourites: the disk is full."
    var help = AppFeature.State(breeds: list, dogsStatus: .loaded)
    help.help = AppFeature.State.Help()
    let alert = AlertState<AppFeature.Action.Alert>(
      title: "Favourites file damaged", message: "It was kept aside.",
      buttons: [ButtonState(role: .cancel, "OK")])
    return [
      ("list", AppFeature.State(breeds: list, dogsStatus: .loaded, dogsHighlighted: "hound")),
      ("loading", AppFeature.State(dogsStatus: .loading)),
      ("failed", AppFeature.State(dogsStatus: .failed(.offline))),
      ("breed", AppFeature.State(breeds: list, dogsStatus: .loaded, breed: breed, favourites: ["hound"])),
      ("breed failed", AppFeature.State(breeds: list, dogsStatus: .loaded, breed: failedPicture)),
      ("notice", withNotice),
      ("help", help),
      ("alert", AppFeature.State(breeds: list, dogsStatus: .loaded, alert: alert)),
    ]
  }

  @Test(arguments: [ColorMode.truecolor, .ansi256, .ansi16], [PictureMode.blocks, .ascii])
  func everyScreenIsLegibleOnALightBackground(colorMode: ColorMode, pictures: PictureMode) {
    let display = Display(
      columns: 80, rows: 24, colorMode: colorMode, lightBackground: true, pictureMode: pictures)
    var coloured = 0
    for (name, state) in Self.screens {
      let frame = AppView.render(AppFeature.ViewState(state), display: display)
      #expect(frame.cells.contains { $0.character != " " }, "\(name) draws nothing")
      let found = Self.illegible(frame)
      #expect(found.isEmpty, "\(name): \(found.prefix(5))\n\(frame.text)")
      coloured += frame.cells.filter { $0.style.foreground != nil && $0.style.background == nil }.count
    }
    // Some text is in a colour of its own (the error's red): the check has something to see.
    #expect(coloured > 0)
  }
}
