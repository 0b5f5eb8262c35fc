import ImageDecoding
import Synchronization

/// Pictures drawn in cells, kept while their pictures live: a screen drawn again with the
/// same picture at the same size (a key pressed, a spinner's tick, an animation's frame
/// coming round again) takes its cells from here instead of fitting them again, which
/// costs milliseconds a picture (``PictureRenderer``).
///
/// Entries are keyed by the picture's ``RGBImage/identity`` and everything the cells
/// depend on (mode, box, background, cell size, colours, symbols), and hold the picture's
/// identity weakly: a picture no longer held anywhere else is not kept alive by its cells,
/// and its entries go at the next insertion. Past ``capacity`` cells, the entries used
/// least recently go first. Safe to use from any thread.
///
/// ```swift
/// let cells = PictureCellCache.shared.cells(frame, mode: .blocks, columns: 80, rows: 21)
/// ```
public final class PictureCellCache: Sendable {
  /// What a picture's cells depend on.
  private struct Key: Hashable {
    var picture: ObjectIdentifier
    var mode: PictureMode
    var columns: Int
    var rows: Int
    var lightBackground: Bool
    var cell: TerminalPicture.CellSize
    var colorMode: ColorMode?
    var symbols: SymbolSet
  }

  private struct Entry {
    /// The picture the cells are of, while it lives.
    weak var picture: RGBImage.Identity?
    var cells: PictureCells
    /// When it was last used, on the cache's own count of uses.
    var used: UInt64
  }

  private struct Contents {
    var entries: [Key: Entry] = [:]
    var cells = 0
    var uses: UInt64 = 0
    var hits = 0
  }

  private let contents = Mutex(Contents())

  /// The most cells kept, all entries together.
  public let capacity: Int

  /// Creates an empty cache that keeps at most `capacity` cells.
  ///
  /// - Parameter capacity: The most cells kept, all pictures together.
  public init(capacity: Int) {
    self.capacity = capacity
  }

  /// The cache ``Layout`` draws pictures with: 262,144 cells (a few megabytes), the 25
  /// frames of an animation drawn full screen on a large terminal.
  public static let shared = PictureCellCache(capacity: 1 << 18)

  /// How many times cells were found here rather than fitted.
  var hits: Int { contents.withLock { $0.hits } }

  /// How many cells are kept now.
  public var count: Int { contents.withLock { $0.cells } }

  /// The cells kept for `image` with these arguments, if any: nothing is fitted, and the
  /// look-up does not count as a use.
  ///
  /// - Parameters: As ``cells(_:mode:columns:rows:lightBackground:cell:colorMode:symbols:)``'s.
  /// - Returns: The cells, or `nil`.
  func kept(
    _ image: RGBImage, mode: PictureMode, columns: Int, rows: Int, lightBackground: Bool = false,
    cell: TerminalPicture.CellSize = .default, colorMode: ColorMode? = nil, symbols: SymbolSet = .half
  ) -> PictureCells? {
    let key = Key(
      picture: ObjectIdentifier(image.identity), mode: mode, columns: columns, rows: rows,
      lightBackground: lightBackground, cell: cell, colorMode: colorMode, symbols: symbols)
    return contents.withLock { contents in
      contents.entries[key].flatMap { $0.picture === image.identity ? $0.cells : nil }
    }
  }

  /// `image`'s cells as ``PictureRenderer/render(_:mode:columns:rows:lightBackground:cell:colorMode:symbols:)``
  /// draws them, fitted once for each picture and set of arguments while it lives.
  ///
  /// - Parameters: As ``PictureRenderer/render(_:mode:columns:rows:lightBackground:cell:colorMode:symbols:)``'s.
  /// - Returns: The cells.
  public func cells(
    _ image: RGBImage, mode: PictureMode, columns: Int, rows: Int, lightBackground: Bool = false,
    cell: TerminalPicture.CellSize = .default, colorMode: ColorMode? = nil, symbols: SymbolSet = .half
  ) -> PictureCells {
    let key = Key(
      picture: ObjectIdentifier(image.identity), mode: mode, columns: columns, rows: rows,
      lightBackground: lightBackground, cell: cell, colorMode: colorMode, symbols: symbols)
    let found = contents.withLock { contents -> PictureCells? in
      // An identifier of a picture gone may be another's now: the identity itself must match.
      guard var entry = contents.entries[key], entry.picture === image.identity else { return nil }
      contents.uses += 1
      contents.hits += 1
      entry.used = contents.uses
      contents.entries[key] = entry
      return entry.cells
    }
    if let found { return found }
    let cells = PictureRenderer.render(
      image, mode: mode, columns: columns, rows: rows, lightBackground: lightBackground, cell: cell,
      colorMode: colorMode, symbols: symbols)
    guard cells.cells.count <= capacity else { return cells }
    contents.withLock { contents in
      // The cells of pictures gone go first, then those used least recently.
      for (key, entry) in contents.entries where entry.picture == nil {
        contents.cells -= entry.cells.cells.count
        contents.entries[key] = nil
      }
      if let old = contents.entries[key] { contents.cells -= old.cells.cells.count }
      while contents.cells + cells.cells.count > capacity,
        let oldest = contents.entries.min(by: { $0.value.used < $1.value.used })
      {
        contents.cells -= oldest.value.cells.cells.count
        contents.entries[oldest.key] = nil
      }
      contents.uses += 1
      contents.entries[key] = Entry(picture: image.identity, cells: cells, used: contents.uses)
      contents.cells += cells.cells.count
    }
    return cells
  }
}
