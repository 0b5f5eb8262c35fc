import Foundation

/// Turns an HTTP status and body into a value or a ``DogAPIError``, following the API's
/// envelope: `{"message": …, "status": "success"}` on success,
/// `{"status": "error", "message": "…", "code": 404}` on error.
///
/// Errors are recognised by HTTP status and the envelope's `status`/`code`, never by the
/// wording of `message` (which has changed over time).
///
/// A 404 is ``DogAPIError/notFound(message:)``, a breed the API does not have, only where
/// the API says so in its error envelope and the request named a breed. Any other 404 (the
/// breed list's, or one without the envelope: an empty body or a web page, from a server
/// that is not the API or an address that leads nowhere on it) is a server error: the
/// user is then told the status, never that a breed is missing.
package enum ResponseDecoding {
  /// The breed list from `/breeds/list/all`.
  package static func breeds(status: Int, body: Data) throws(DogAPIError) -> [Breed] {
    let message = try successMessage(status: status, body: body, namesABreed: false)
    guard let object = message as? [String: Any] else {
      throw .malformedResponse(detail: "the breed list is not an object")
    }
    var breeds: [Breed] = []
    breeds.reserveCapacity(object.count)
    for (name, value) in object {
      guard let subBreeds = value as? [Any] else {
        throw .malformedResponse(detail: "the sub-breeds of a breed are not a list")
      }
      var names: [String] = []
      for subBreed in subBreeds {
        guard let subBreed = subBreed as? String else {
          throw .malformedResponse(detail: "a sub-breed name is not a string")
        }
        names.append(subBreed)
      }
      breeds.append(Breed(name: name, subBreeds: names.sorted()))
    }
    return breeds.sorted { $0.name < $1.name }
  }

  /// The image URL from `/breed/…/images/random`.
  package static func imageURL(status: Int, body: Data) throws(DogAPIError) -> URL {
    let message = try successMessage(status: status, body: body, namesABreed: true)
    guard let text = message as? String else {
      throw .malformedResponse(detail: "the image address is not a string")
    }
    guard let url = webURL(text) else {
      throw .malformedResponse(detail: "the image address is not an http(s) URL")
    }
    return url
  }

  /// The picture addresses of a list answer (`/breed/NAME/images`); those that are not
  /// http(s) addresses are left out.
  static func imageURLs(status: Int, body: Data) throws(DogAPIError) -> [URL] {
    let message = try successMessage(status: status, body: body, namesABreed: true)
    guard let texts = message as? [Any] else {
      throw .malformedResponse(detail: "the image addresses are not a list")
    }
    return texts.compactMap { ($0 as? String).flatMap(webURL) }
  }

  /// Whether `url` is a picture of this breed (or sub-breed) by its folder, the path
  /// component after `breeds`: exactly `breed-sub` for a sub-breed; for a breed, `breed`
  /// or one of its sub-breeds' `breed-…` (the API keeps a breed with sub-breeds' pictures
  /// in theirs). `puggle` is no picture of `pug`, nor `pointer-germanlonghair` of
  /// `pointer/german`.
  static func isPicture(_ url: URL, of breed: String, subBreed: String?) -> Bool {
    let components = url.pathComponents
    guard let index = components.firstIndex(of: "breeds"), index + 1 < components.count else { return false }
    let folder = components[index + 1]
    if let subBreed { return folder == "\(breed)-\(subBreed)" }
    return folder == breed || folder.hasPrefix("\(breed)-")
  }

  /// `url` if it is an absolute `http`/`https` URL with a host.
  static func webURL(_ text: String) -> URL? {
    guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
      scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty
    else { return nil }
    return url
  }

  /// The `message` of a success envelope, or the error the status and body describe.
  ///
  /// - Parameters:
  ///   - status: The HTTP status.
  ///   - body: The body.
  ///   - namesABreed: Whether the request named a breed, so that the API's "not found"
  ///     means that breed.
  static func successMessage(status: Int, body: Data, namesABreed: Bool) throws(DogAPIError) -> Any {
    let object =
      (try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]))
      as? [String: Any]
    let apiMessage = object?["message"] as? String
    let code = (object?["code"] as? Int) ?? Int(object?["code"] as? String ?? "")
    // What a failure is: the API's own "not found" (its error envelope says 404, in its
    // code or, with `"status": "error"`, in the HTTP status) about a breed named, else a
    // server error.
    let apiSaysNotFound = code == 404 || (status == 404 && object?["status"] as? String == "error")
    let failure: DogAPIError =
      namesABreed && apiSaysNotFound
      ? .notFound(message: apiMessage) : .server(status: status, message: apiMessage)
    guard (200..<300).contains(status) else { throw failure }
    guard let object else {
      throw .malformedResponse(detail: "the body is not a JSON object")
    }
    guard object["status"] as? String == "success" else { throw failure }
    guard let message = object["message"] else {
      throw .malformedResponse(detail: "the success envelope has no message")
    }
    return message
  }
}
