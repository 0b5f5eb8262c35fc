import DogAPIClient
import Testing

/// One text for a breed or a sub-breed, as favourites, `show` and JSON name them, and back.
struct BreedPathTests {
  @Test(
    arguments: [
      ("hound", nil, "hound"), ("hound", "afghan", "hound/afghan"),
      ("pointer", "germanlonghair", "pointer/germanlonghair"),
    ] as [(String, String?, String)])
  func aPathNamesABreedOrASubBreedAndReadsBack(breed: String, subBreed: String?, path: String) {
    #expect(BreedName.path(breed, subBreed) == path)
    let parts = BreedName.parts(ofPath: path)
    #expect(parts.breed == breed && parts.subBreed == subBreed)
  }

  /// Only the first `/` separates; what follows it is the sub-breed as written.
  @Test func onlyTheFirstSlashSeparates() {
    let parts = BreedName.parts(ofPath: "a/b/c")
    #expect(parts.breed == "a" && parts.subBreed == "b/c")
    #expect(BreedName.parts(ofPath: "").breed == "")
  }
}
