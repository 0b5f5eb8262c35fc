import Synchronization

/// Reads an enum value's case and takes out its payload through the runtime's metadata:
/// the value witnesses every enum type has (`getEnumTag`, `destructiveProjectEnumData`),
/// as the compiled code of a `switch` does.
///
/// The layout it relies on is the runtime's: a type's value witness table sits one word
/// before its metadata, and an enum's table extends the common one (eight functions, the
/// size, the stride, two 32-bit fields) with `getEnumTag` and
/// `destructiveProjectEnumData` and `destructiveInjectEnumTag`. Each takes the value's
/// address (and the tag, to inject) and the metadata.
@usableFromInline
struct EnumWitnesses: @unchecked Sendable {
  // Immutable after init; the metadata lives as long as the process.
  @usableFromInline let metadata: UnsafeRawPointer
  @usableFromInline let getTag: @convention(c) (UnsafeRawPointer, UnsafeRawPointer) -> UInt32
  @usableFromInline let project: @convention(c) (UnsafeMutableRawPointer, UnsafeRawPointer) -> Void
  @usableFromInline let inject: @convention(c) (UnsafeMutableRawPointer, UInt32, UnsafeRawPointer) -> Void

  /// The witnesses of `type`, or `nil` if it is not an enum (or an optional).
  @usableFromInline
  init?(_ type: Any.Type) {
    let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
    // The metadata's kind: 0x201 an enum, 0x202 an optional.
    let kind = metadata.load(as: UInt.self)
    guard kind == 0x201 || kind == 0x202 else { return nil }
    let word = MemoryLayout<UnsafeRawPointer>.size
    let table = metadata.load(fromByteOffset: -word, as: UnsafeRawPointer.self)
    let enumPart = 8 * word + 2 * word + 2 * MemoryLayout<UInt32>.size
    self.metadata = metadata
    self.getTag = unsafeBitCast(
      table.load(fromByteOffset: enumPart, as: UnsafeRawPointer.self),
      to: (@convention(c) (UnsafeRawPointer, UnsafeRawPointer) -> UInt32).self)
    self.project = unsafeBitCast(
      table.load(fromByteOffset: enumPart + word, as: UnsafeRawPointer.self),
      to: (@convention(c) (UnsafeMutableRawPointer, UnsafeRawPointer) -> Void).self)
    self.inject = unsafeBitCast(
      table.load(fromByteOffset: enumPart + 2 * word, as: UnsafeRawPointer.self),
      to: (@convention(c) (UnsafeMutableRawPointer, UInt32, UnsafeRawPointer) -> Void).self)
  }

  /// The case of `value`: its index among the enum's cases (those with a payload first).
  @inlinable
  func tag<Root>(of value: Root) -> UInt32 {
    withUnsafePointer(to: value) { getTag(UnsafeRawPointer($0), metadata) }
  }

  /// A copy of the payload of `value`, of the case `tag`, whose payload must be a
  /// `Payload` stored in place (not indirectly, in a box).
  @inlinable
  func payload<Root, Payload>(of value: Root, tag: UInt32, as _: Payload.Type) -> Payload {
    var copy = value
    return withUnsafeMutablePointer(to: &copy) { pointer in
      let address = UnsafeMutableRawPointer(pointer)
      // The payload now lies at the start, the case's bits cleared: copied out, and the
      // case put back, so that the copy is destroyed as the enum's value it is.
      project(address, metadata)
      let payload = address.assumingMemoryBound(to: Payload.self).pointee
      inject(address, tag, metadata)
      return payload
    }
  }

  /// Calls `body` with the bytes of `value`'s payload as stored (an indirect case stores a
  /// box), without knowing its type.
  func withPayloadBytes<Root, Result>(of value: Root, _ body: (UnsafeRawPointer) -> Result) -> Result {
    withUnsafeTemporaryAllocation(
      byteCount: MemoryLayout<Root>.size, alignment: MemoryLayout<Root>.alignment
    ) { buffer in
      let address = buffer.baseAddress!
      address.initializeMemory(as: Root.self, to: value)
      let tag = getTag(address, metadata)
      project(address, metadata)
      let result = body(UnsafeRawPointer(address))
      // Made the enum's value again, and destroyed as one.
      inject(address, tag, metadata)
      address.assumingMemoryBound(to: Root.self).deinitialize(count: 1)
      return result
    }
  }
}

/// Extracts `Value` from a `Root` that is the case `embed` makes, knowing only `embed`
/// (`Action.child`): the case is learnt from the first value of it seen, then recognised
/// by its tag.
///
/// Learning the case takes the value's payload through `Mirror` and embeds it again: the
/// case `embed` makes is then known by its tag. A value of another case whose payload is
/// not a `Value` is that case's once for all (a bit per tag). Once the tag is known, a
/// value of another case costs a comparison of tags, and one of this case a copy of its
/// payload, taken out as the compiled `if case` does. A case stored indirectly, or an
/// `embed` that is not a case of `Root` alone (one that wraps the value further), is
/// extracted through `Mirror` each time, still checked by its tag.
@usableFromInline
final class EnumCaseExtractor<Root, Value>: Sendable {
  @usableFromInline let witnesses: EnumWitnesses
  private let embed: @Sendable (Value) -> Root
  /// How `embed`'s case is read, -1 until known: its tag times four, plus a ``Reading``.
  @usableFromInline let learnt = Atomic<Int>(-1)
  /// Bit `n`: tag `n` is another case.
  private let others = Atomic<UInt64>(0)

  /// How the payload of `embed`'s case is read.
  @usableFromInline
  enum Reading: Int {
    /// Taken out of a copy, the case's bits cleared by the enum's witness.
    case projected = 0
    /// Read where it lies: the case's bits are not among the payload's (they are in a
    /// byte after it, or zero), as for most enums.
    case inPlace = 1
    /// Through `Mirror`: a case stored indirectly, or an `embed` that is not a case alone.
    case mirrored = 2
  }

  @usableFromInline
  init(_ embed: @escaping @Sendable (Value) -> Root) {
    guard let witnesses = EnumWitnesses(Root.self) else {
      preconditionFailure(
        "CasePath(_:) takes a case of an enum (such as 'Action.child'); \(Root.self) is not an enum.")
    }
    self.witnesses = witnesses
    self.embed = embed
  }

  /// The payload of `root` if it is `embed`'s case. Inlinable, so that the common path
  /// (the case known, the payload in place) is specialised for the enum in the caller.
  @inlinable
  func extract(from root: Root) -> Value? {
    let tag = witnesses.tag(of: root)
    let known = learnt.load(ordering: .relaxed)
    guard known >= 0 else { return learn(from: root, tag: tag) }
    guard tag == UInt32(truncatingIfNeeded: known >> 2) else { return nil }
    switch known & 3 {
    case Reading.inPlace.rawValue:
      return withUnsafePointer(to: root) { UnsafeRawPointer($0).load(as: Value.self) }
    case Reading.projected.rawValue:
      return witnesses.payload(of: root, tag: tag, as: Value.self)
    default:
      return mirroredPayload(of: root)
    }
  }

  /// Learns `embed`'s case from `root` if it can, and extracts.
  @usableFromInline
  func learn(from root: Root, tag: UInt32) -> Value? {
    if tag < 64, others.load(ordering: .relaxed) & (1 << tag) != 0 { return nil }
    guard let value = mirroredPayload(of: root) else {
      // A payload that is no `Value` (or none): `root`'s case is another one.
      if tag < 64 { others.bitwiseOr(1 << tag, ordering: .relaxed) }
      return nil
    }
    let embedded = embed(value)
    let caseTag = witnesses.tag(of: embedded)
    learnt.store(Int(caseTag) << 2 | reading(embedded, value).rawValue, ordering: .relaxed)
    return caseTag == tag ? value : nil
  }

  /// The payload of `root`'s case, if it is a `Value`, through `Mirror`.
  @usableFromInline
  func mirroredPayload(of root: Root) -> Value? {
    guard let payload = Mirror(reflecting: root).children.first?.value else { return nil }
    if let value = payload as? Value { return value }
    // A single labelled value (`case named(name: String)`) mirrors as a tuple of one.
    let tuple = Mirror(reflecting: payload)
    guard tuple.displayStyle == .tuple, tuple.children.count == 1 else { return nil }
    return tuple.children.first?.value as? Value
  }

  /// How to read the payload of `embed`'s case, from `embedded`, which is `embed(value)`.
  ///
  /// Its payload, taken out, must be `value`'s bytes: not so for a case stored indirectly
  /// (its payload is a box), nor for an `embed` that wraps `value`. It may then be read in
  /// place if taking it out changed no byte of it: the case is not told by bits of the
  /// payload (spare bits of a pointer, say), and so never is, whatever the value.
  private func reading(_ embedded: Root, _ value: Value) -> Reading {
    guard MemoryLayout<Value>.size <= MemoryLayout<Root>.size else { return .mirrored }
    let size = MemoryLayout<Value>.size
    return witnesses.withPayloadBytes(of: embedded) { payload in
      let projected = UnsafeRawBufferPointer(start: payload, count: size)
      let isValue = withUnsafeBytes(of: value) { projected.elementsEqual($0) }
      guard isValue else { return .mirrored }
      let isInPlace = withUnsafeBytes(of: embedded) { projected.elementsEqual($0.prefix(size)) }
      return isInPlace ? .inPlace : .projected
    }
  }
}
