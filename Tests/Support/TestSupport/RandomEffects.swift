import Core

/// Random effects for property tests of stores: action `n` returns `trees[n]`, which may
/// only send later actions, so every run ends. The same seed gives the same reducers.
public struct RandomEffects {
  /// One effect, as data.
  public indirect enum Tree: Sendable {
    /// `Effect.none`.
    case none
    /// `Effect.send` of the action.
    case send(Int)
    /// A `run` that sends the action after a yield.
    case run(Int)
    /// `Effect.merge` of the trees.
    case merge([Tree])
    /// `Effect.concatenate` of the trees.
    case concatenate([Tree])
    /// The tree's effect through `map` (the identity).
    case mapped(Tree)
    /// The tree's effect made cancellable under the id.
    case cancellable(String, cancelInFlight: Bool, Tree)
    /// `Effect.cancel(id:)`.
    case cancel(String)
    /// The tree's effect in the namespace.
    case namespaced(String, Tree)
    /// `Effect.cancelNamespace`.
    case cancelNamespace(String)

    /// The effect it describes.
    public var effect: Effect<Int> {
      switch self {
      case .none: .none
      case .send(let action): .send(action)
      case .run(let action):
        .run { send in
          await Task.yield()
          await send(action)
        }
      case .merge(let trees): .merge(trees.map(\.effect))
      case .concatenate(let trees): .concatenate(trees.map(\.effect))
      case .mapped(let tree): tree.effect.map { $0 }
      case .cancellable(let id, let cancelInFlight, let tree):
        tree.effect.cancellable(id: id, cancelInFlight: cancelInFlight)
      case .cancel(let id): .cancel(id: id)
      case .namespaced(let namespace, let tree): tree.effect.namespaced(namespace)
      case .cancelNamespace(let namespace): .cancelNamespace(namespace)
      }
    }
  }

  /// A reducer's effects, one per action.
  public struct Trees: Sendable {
    /// The effect of each action.
    public let trees: [Tree]

    /// Appends each action to the state and returns its tree's effect.
    public var reducer: Reduce<[Int], Int> {
      Reduce { [trees] state, action in
        state.append(action)
        return trees[action].effect
      }
    }

    /// The actions `action` leads to, itself first, when every effect finishes at once
    /// (in any order, with `run`s): depth first, an action sent reduced and its own effect
    /// run before the next part; a cancellation stops the concatenations under way (the
    /// only effects then running) that it names: `cancel` those marked with its id in the
    /// same namespace, `cancelNamespace` those inside the namespace. An action sent runs
    /// its effect outside every namespace.
    public func expected(_ action: Int) -> [Int] {
      enum Key: Equatable {
        case id(path: [String], String)
        case namespace([String])
      }
      final class Concatenation {
        let keys: [Key]
        var isCancelled = false
        init(keys: [Key]) { self.keys = keys }
      }
      var underWay: [Concatenation] = []
      var reduced: [Int] = []
      func cancel(_ key: Key) {
        for concatenation in underWay where concatenation.keys.contains(key) {
          concatenation.isCancelled = true
        }
      }
      func reduce(_ action: Int) {
        reduced.append(action)
        run(trees[action], path: [], keys: [])
      }
      func run(_ tree: Tree, path: [String], keys: [Key]) {
        switch tree {
        case .none: break
        case .send(let action), .run(let action): reduce(action)
        case .merge(let trees): for tree in trees { run(tree, path: path, keys: keys) }
        case .concatenate(let steps):
          let concatenation = Concatenation(keys: keys)
          underWay.append(concatenation)
          for step in steps where !concatenation.isCancelled { run(step, path: path, keys: keys) }
          underWay.removeAll { $0 === concatenation }
        case .mapped(let tree): run(tree, path: path, keys: keys)
        case .cancellable(let id, let cancelInFlight, let tree):
          if cancelInFlight { cancel(.id(path: path, id)) }
          run(tree, path: path, keys: keys + [.id(path: path, id)])
        case .cancel(let id): cancel(.id(path: path, id))
        case .namespaced(let namespace, let tree):
          run(tree, path: path + [namespace], keys: keys + [.namespace(path + [namespace])])
        case .cancelNamespace(let namespace): cancel(.namespace(path + [namespace]))
        }
      }
      reduce(action)
      return reduced
    }
  }

  var seed: UInt64
  /// Whether trees have `run`s (and then no cancellation, whose outcome would depend on
  /// timing).
  let withTasks: Bool
  let actions = 7

  /// Creates a generator.
  ///
  /// - Parameters:
  ///   - seed: Where the pseudo-random sequence starts.
  ///   - withTasks: Whether trees have `run`s (and then no cancellations).
  public init(seed: UInt64, withTasks: Bool) {
    self.seed = seed
    self.withTasks = withTasks
  }

  /// The next pseudo-random number below `bound`.
  public mutating func next(_ bound: Int) -> Int {
    seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return Int((seed >> 33) % UInt64(bound))
  }

  /// The next random reducer.
  public mutating func reducer() -> Trees {
    Trees(trees: (0..<actions).map { tree(for: $0, depth: 3) })
  }

  mutating func tree(for action: Int, depth: Int) -> Tree {
    let id = ["a", "b"][next(2)]
    let namespace = ["m", "n"][next(2)]
    switch depth == 0 ? min(next(5), 1) : next(10) {
    case 0: return .none
    case 1, 2:
      guard action + 1 < actions else { return .none }
      let later = action + 1 + next(actions - action - 1)
      return withTasks && next(3) == 0 ? .run(later) : .send(later)
    case 3: return .merge((0...next(3)).map { _ in tree(for: action, depth: depth - 1) })
    case 4: return .concatenate((0...next(3)).map { _ in tree(for: action, depth: depth - 1) })
    case 5: return .mapped(tree(for: action, depth: depth - 1))
    case 6: return withTasks ? .none : .cancel(id)
    case 7: return withTasks ? .none : .cancelNamespace(namespace)
    case 8: return .namespaced(namespace, tree(for: action, depth: depth - 1))
    default:
      return .cancellable(id, cancelInFlight: !withTasks && next(2) == 0, tree(for: action, depth: depth - 1))
    }
  }
}
