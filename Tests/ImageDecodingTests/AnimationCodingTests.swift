import Foundation
import ImageDecoding
import TestSupport
import Testing

/// An animation written and read back: its frames themselves, or, in a log with a pixel
/// store, the file it was decoded from, kept once with its first frame's picture.
struct AnimationCodingTests {
  /// Red, then green over the left half, then blue over the right: three frames of 8 × 6.
  static let file: [UInt8] = {
    var gif = GIFWriter(width: 8, height: 6, colors: [[255, 0, 0], [0, 200, 0], [0, 0, 255]])
    gif.loop(0)
    gif.frame([UInt8](repeating: 0, count: 48), delay: 5)
    gif.frame([UInt8](repeating: 1, count: 24), width: 4, height: 6, delay: 7)
    gif.frame([UInt8](repeating: 2, count: 24), left: 4, top: 0, width: 4, height: 6, delay: 9)
    return gif.file
  }()

  /// In a log, an animation is its file (the same blob its first frame's picture was
  /// kept as), how it was decoded and its plays: reading it decodes the file again to the
  /// same frames, with the plays the log says (the app's, which may not be the file's).
  @Test func withAStoreAnAnimationIsKeptAsItsFileOnceWithItsFirstFrame() throws {
    let still = try ImageDecoder.decode(Self.file, fitting: (4, 3))
    var animation = try GIFDecoder.decodeAnimation(Self.file, fitting: (4, 3))
    #expect(animation.frames.count == 3 && animation.plays == .forever)
    animation.plays = .times(2)
    let store = RGBImage.PixelStore()
    let lines = try [encoder(store).encode(still), encoder(store).encode(animation)]
    let blobs = store.takeNew()
    #expect(blobs.map(\.bytes) == [Self.file])
    let json = try object(lines[1])
    #expect(json["decodedFrom"] as? String == blobs.first?.key)
    #expect(json["fitting"] as? [Int] == [4, 3] && json["frameCount"] as? Int == 3)
    #expect(json["frames"] == nil)
    #expect(lines[1].count < 200, "\(String(decoding: lines[1], as: UTF8.self))")
    let reader = RGBImage.PixelStore()
    for blob in blobs { reader.add(blob) }
    let read = try decoder(reader).decode(Animation.self, from: lines[1])
    #expect(read == animation && read.plays == .times(2))
    #expect(read.frames.map(\.delay) == [.milliseconds(50), .milliseconds(70), .milliseconds(90)])
  }

  /// Without a store, or for frames no decoder made, the frames themselves.
  @Test func withoutAStoreTheFramesAreWritten() throws {
    let animation = try GIFDecoder.decodeAnimation(Self.file)
    let data = try JSONEncoder().encode(animation)
    #expect((try object(data)["frames"] as? [Any])?.count == 3)
    #expect(try JSONDecoder().decode(Animation.self, from: data) == animation)
    let made = Animation(frames: animation.frames, plays: .times(1), isComplete: false)
    let store = RGBImage.PixelStore()
    let line = try encoder(store).encode(made)
    #expect(try object(line)["decodedFrom"] == nil)
    #expect(try decoder(store).decode(Animation.self, from: line) == made)
  }

  @Test func aFileThatNoLongerGivesAsManyFramesIsRefused() throws {
    let store = RGBImage.PixelStore()
    let line = try encoder(store).encode(try GIFDecoder.decodeAnimation(Self.file))
    let reader = RGBImage.PixelStore()
    for blob in store.takeNew() { reader.add(blob) }
    let edited = Data(
      String(decoding: line, as: UTF8.self).replacingOccurrences(
        of: "\"frameCount\":3", with: "\"frameCount\":4"
      )
      .utf8)
    #expect {
      try decoder(reader).decode(Animation.self, from: edited)
    } throws: { error in
      guard case DecodingError.dataCorrupted(let context) = error else { return false }
      return context.debugDescription == "The file the animation was decoded from has 3 frames, not 4."
    }
    #expect(throws: DecodingError.self) {
      try decoder(RGBImage.PixelStore()).decode(Animation.self, from: line)
    }
  }

  /// A dump names the frames' count, size and delays, and hashes the first frame alone:
  /// fingerprinting a state that holds an animation costs one frame, not all of them.
  @Test func aDumpSummarisesTheFrames() throws {
    func dumped(_ animation: Animation) -> String {
      var text = ""
      dump(animation, to: &text)
      return text
    }
    let animation = try GIFDecoder.decodeAnimation(Self.file)
    let text = dumped(animation)
    #expect(text.contains("3 frames of 8×6, 50 to 90 ms, 210 ms in all"), "\(text)")
    #expect(text.contains("first: ") && text.contains("forever"))
    #expect(text.split(separator: "\n").count < 20, "\(text)")
    var other = animation
    other.frames[2].delay = .milliseconds(90)
    other.frames[1].delay = .milliseconds(70)
    other.frames[1].image = other.frames[2].image
    // Frames after the first are not hashed: their delays are summarised.
    #expect(dumped(other) == text && other != animation)
    other.frames[0] = animation.frames[1]
    #expect(dumped(other) != text)
  }
}
