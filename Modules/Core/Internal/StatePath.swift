/// A writable key path prepared for fast in-place access from reducers.
///
/// Applying a `WritableKeyPath` goes through the runtime (projection, a coroutine and an
/// exclusivity check) and cost ~30–50 ns per level of scoping in the benchmark. When the
/// key path names a stored property, `MemoryLayout.offset(of:)` gives its byte offset
/// and the standard library documents accessing the property through that offset; this
/// does so. Computed key paths (projections) and class properties have no offset and use
/// the key path as usual, so behaviour is the same either way.
@usableFromInline
struct StatePath<Root, Value> {
  @usableFromInline let keyPath: WritableKeyPath<Root, Value>
  @usableFromInline let offset: Int?

  @inlinable
  init(_ keyPath: WritableKeyPath<Root, Value>) {
    self.keyPath = keyPath
    self.offset = MemoryLayout<Root>.offset(of: keyPath)
  }

  /// Runs `body` on the value inside `root`, in place.
  @inlinable
  func modify<Result>(_ root: inout Root, _ body: (inout Value) -> Result) -> Result {
    guard let offset else { return body(&root[keyPath: keyPath]) }
    return withUnsafeMutableBytes(of: &root) { bytes in
      body(&(bytes.baseAddress! + offset).assumingMemoryBound(to: Value.self).pointee)
    }
  }

  /// Reads the value (in place: `root` is only borrowed, never copied).
  @inlinable
  func get(_ root: inout Root) -> Value {
    guard let offset else { return root[keyPath: keyPath] }
    return withUnsafeBytes(of: &root) { bytes in
      (bytes.baseAddress! + offset).assumingMemoryBound(to: Value.self).pointee
    }
  }
}
