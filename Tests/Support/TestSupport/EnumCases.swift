/// An enum's cases, read from the runtime's metadata: what a test compares the cases it
/// covers with, so that a case added without a sample fails it.
///
/// The layout read is the runtime's (as Core's `EnumWitnesses` reads its value witnesses):
/// an enum's metadata holds its kind, then a pointer to its type descriptor, and its value
/// witness table sits one word before it. The descriptor holds, at fixed places, a
/// relative pointer to its field descriptor and the numbers of its cases with and without
/// payloads; the field descriptor lists a record per case, in the order declared, each with
/// relative pointers to its payload's type (none for a case without one) and to its name.
/// A value's case is its tag, from the table's `getEnumTag`: the cases with payloads come
/// first, in the order declared, then the others.
public enum EnumCases {
  /// The names of `type`'s cases, in the order of their tags (those with payloads first,
  /// each group in the order declared), or `nil` if it is not an enum.
  ///
  /// - Parameter type: Any type.
  /// - Returns: The names.
  public static func names(of type: Any.Type) -> [String]? {
    let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
    guard isEnum(metadata) else { return nil }
    let descriptor = metadata.load(fromByteOffset: word, as: UnsafeRawPointer.self)
    // The descriptor: flags, parent, name, access function, fields (32 bits each, the last
    // four relative pointers), then the payload cases (the low 24 bits) and the empty ones.
    let payloadCases = Int(descriptor.load(fromByteOffset: 20, as: UInt32.self) & 0x00FF_FFFF)
    let emptyCases = Int(descriptor.load(fromByteOffset: 24, as: UInt32.self))
    guard let fields = relative(descriptor + 16) else { return nil }
    // The field descriptor: two relative pointers, a kind and a record size (16 bits each),
    // the number of records, then the records: flags, payload type, name (32 bits each).
    let recordSize = Int(fields.load(fromByteOffset: 10, as: UInt16.self))
    let count = Int(fields.load(fromByteOffset: 12, as: UInt32.self))
    guard count == payloadCases + emptyCases else { return nil }
    var withPayload: [String] = []
    var without: [String] = []
    for index in 0..<count {
      let record = fields + 16 + index * recordSize
      let name = relative(record + 8).map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? ""
      if relative(record + 4) == nil { without.append(name) } else { withPayload.append(name) }
    }
    guard withPayload.count == payloadCases else { return nil }
    return withPayload + without
  }

  /// The name of `value`'s case, or `nil` if it is not a value of an enum.
  ///
  /// - Parameter value: Any value (an enum's inside an `Any` too).
  /// - Returns: The name, as ``names(of:)`` gives it.
  public static func name(of value: Any) -> String? {
    func tagged<Value>(_ value: Value) -> String? {
      let metadata = unsafeBitCast(Value.self, to: UnsafeRawPointer.self)
      guard isEnum(metadata), let names = names(of: Value.self) else { return nil }
      let table = metadata.load(fromByteOffset: -word, as: UnsafeRawPointer.self)
      // The enum part of the value witness table follows eight functions, the size, the
      // stride and two 32-bit fields; `getEnumTag` comes first in it.
      let getTag = unsafeBitCast(
        table.load(fromByteOffset: 10 * word + 8, as: UnsafeRawPointer.self),
        to: (@convention(c) (UnsafeRawPointer, UnsafeRawPointer) -> UInt32).self)
      let tag = Int(withUnsafePointer(to: value) { getTag(UnsafeRawPointer($0), metadata) })
      return names.indices.contains(tag) ? names[tag] : nil
    }
    return _openExistential(value, do: tagged)
  }

  private static let word = MemoryLayout<UnsafeRawPointer>.size

  /// Whether the metadata's kind is an enum's (0x201) or an optional's (0x202).
  private static func isEnum(_ metadata: UnsafeRawPointer) -> Bool {
    let kind = metadata.load(as: UInt.self)
    return kind == 0x201 || kind == 0x202
  }

  /// Where a 32-bit relative pointer at `address` points, or `nil` for a null one.
  private static func relative(_ address: UnsafeRawPointer) -> UnsafeRawPointer? {
    let offset = address.load(as: Int32.self)
    return offset == 0 ? nil : address + Int(offset)
  }
}
