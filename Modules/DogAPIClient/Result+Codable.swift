/// A response as a session log writes it: `{"success": value}` or `{"failure": error}`.
///
/// The actions that carry answers carry them as `Result`s (`breedsResponse(.success(list))`),
/// and the standard library does not make `Result` `Codable`; this conformance lets those
/// actions be written and read back with their synthesized conformances. It is here, beside
/// ``DogAPIError``, because every feature that carries a `Result` imports this module; no
/// other module of the package declares it.
extension Result: @retroactive Encodable where Success: Encodable, Failure: Encodable {
  /// Writes `{"success": value}` or `{"failure": error}`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: ResultCodingKey.self)
    switch self {
    case .success(let value): try container.encode(value, forKey: .success)
    case .failure(let error): try container.encode(error, forKey: .failure)
    }
  }
}

extension Result: @retroactive Decodable where Success: Decodable, Failure: Decodable {
  /// Reads what ``encode(to:)`` wrote: one key, `success` or `failure`.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: ResultCodingKey.self)
    guard container.allKeys.count == 1, let key = container.allKeys.first else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: container.codingPath,
          debugDescription: "A result has one key, \"success\" or \"failure\"."))
    }
    switch key {
    case .success: self = .success(try container.decode(Success.self, forKey: .success))
    case .failure: self = .failure(try container.decode(Failure.self, forKey: .failure))
    }
  }
}

/// The keys of a coded `Result`.
private enum ResultCodingKey: String, CodingKey {
  case success, failure
}
