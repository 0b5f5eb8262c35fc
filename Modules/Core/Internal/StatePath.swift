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

/// A root store's runtime, seen by a scoped store that reads from its storage.
@MainActor
@usableFromInline
protocol RootStateStorage: AnyObject {
  /// Calls `body` with the address of the root store's state.
  func withStateBytes(_ body: (UnsafeRawPointer) -> Void)
  /// Registers `update` for every change of the root store's state; it is handed the
  /// storage to read from, so that it need not hold it (the storage holds `update`).
  func addChangeObserver(_ update: @escaping (any RootStateStorage) -> Void) -> Int
}

/// Where a scoped store's state lies inside the root store's state, when every key path
/// from the root to it names a stored property: a byte offset into the root's storage.
///
/// Reading a scoped store's state through its parents costs one key path projection per
/// level (~90 ns each, through the runtime) and copies every state on the way. With a
/// location it is one copy of the value itself, read in place from the root's storage,
/// however deep the store: `MemoryLayout.offset(of:)` gives each stored property's
/// offset, and the offsets along a path add up.
@MainActor
@usableFromInline
struct StateLocation {
  @usableFromInline let storage: any RootStateStorage
  /// The state's offset from the start of the root's.
  @usableFromInline let offset: Int

  @usableFromInline
  init(storage: any RootStateStorage, offset: Int) {
    self.storage = storage
    self.offset = offset
  }

  /// The location of the root store's state, or `nil` for a state of no size (it has no
  /// storage to point into).
  @inlinable
  static func root<State, Action>(of runtime: StoreRuntime<State, Action>) -> Self? {
    MemoryLayout<State>.size > 0 ? Self(storage: runtime, offset: 0) : nil
  }

  /// The location of the value at `keyPath` inside the value here, if `keyPath` names
  /// stored properties only.
  @inlinable
  func appending<Parent, Child>(_ keyPath: KeyPath<Parent, Child>) -> Self? {
    MemoryLayout<Parent>.offset(of: keyPath).map { Self(storage: storage, offset: offset + $0) }
  }

  /// Reads the value here.
  @inlinable
  func read<Value>(_: Value.Type) -> Value {
    var value: Value?
    storage.withStateBytes { value = ($0 + offset).assumingMemoryBound(to: Value.self).pointee }
    return value!
  }
}
