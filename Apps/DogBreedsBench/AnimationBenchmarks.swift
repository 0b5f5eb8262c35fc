import AppFeature
import Core
import DogAPIClient
import Foundation
import ImageDecoding
import TextRendering

/// An animated GIF's frame on the Breed screen at 80×24, as the app shows one: the frame's
/// action (and the effect that waits for the next), the view state, layout and diff. The
/// frames' cells are kept per frame (`PictureCellCache`) once they have come round once;
/// the reference is fitting one frame's cells, what each frame would cost without them.
@MainActor
func animationBenchmarks() -> [Row3] {
  // 25 frames of 480 × 270, a pattern moved along as a camera pans, 10 a second.
  let (width, height) = (480, 270)
  let frames = (0..<25).map { index -> AnimationFrame in
    var pixels = [UInt8](repeating: 0, count: width * height * 3)
    for y in 0..<height {
      for x in 0..<width {
        let u = (x + index * 19) % width
        let offset = (y * width + x) * 3
        pixels[offset] = UInt8(u * 255 / width)
        pixels[offset + 1] = UInt8(y * 255 / height)
        pixels[offset + 2] = UInt8((u ^ y) & 255)
      }
    }
    return AnimationFrame(
      image: RGBImage(width: width, height: height, pixels: pixels), delay: .milliseconds(100))
  }
  let animation = Animation(frames: frames, plays: .forever)
  let list = BreedList(breeds: [Breed(name: "hound")], source: .network)
  let store = Store(initialState: AppFeature.State(breeds: list, dogsStatus: .loaded)) {
    AppFeature(client: .failing, motion: .plays(times: nil))
  }
  let url = URL(string: "https://images.dog.ceo/breeds/hound/animated.gif")!
  store.send(.dogs(.rowSelected("hound")))
  store.send(.breed(.imageURLResponse(.success(url), at: Date())))
  store.send(.breed(.pictureResponse(.success(frames[0].image), at: Date())))
  store.send(.breed(.animationDecoded(animation)))
  func frame() -> Frame {
    AppView.render(
      AppFeature.ViewState(store.state),
      display: Display(columns: 80, rows: 24, colorMode: .truecolor, pictureMode: .blocks))
  }
  var previous = frame()
  var bytes = 0
  var shown = 0
  func next() {
    store.send(.breed(.frameDelayElapsed))
    let drawn = frame()
    bytes += ScreenDiffer.update(from: previous, to: drawn, colorMode: .truecolor).count
    shown += 1
    previous = drawn
  }
  // Once round, uncounted: each frame's cells fitted the first time it shows.
  for _ in frames { next() }
  (bytes, shown) = (0, 0)
  // A frame's cells fitted, in the box the Breed screen gives the picture at 80×24 (the
  // rows less the title, the divider, the caption and the key hints), alternating with
  // frames shown.
  let box = (80, 24 - 4)
  var fitted = 0
  let (perFrame, fitting) = measureAlternately(iterations: frames.count) { n in
    for _ in 0..<n { next() }
  } _: { n in
    for _ in 0..<n {
      blackHole(
        PictureRenderer.render(
          frames[fitted % frames.count].image, mode: .blocks, columns: box.0, rows: box.1,
          colorMode: .truecolor, symbols: .auto))
      fitted += 1
    }
  }
  return [
    Row3(
      name: "animation frame → screen, 480×270 GIF, 80×24", ns: perFrame, baseline: fitting,
      goal: "≤ 1,000,000 ns (1 % of a core at 10 fps)", limit: 1_000_000),
    Row3(
      name: "bytes per animation frame, 80×24", ns: Double(bytes) / Double(max(1, shown)), baseline: 0,
      goal: "-"),
  ]
}
