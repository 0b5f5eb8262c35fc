import Core
import TestSupport
import Testing

/// How effects combine: `none` absorbed, order kept when one side is already a merge or a
/// concatenation, `map` keeping the shape, and a cancelled concatenation stopping the step
/// it is in.
@MainActor
struct EffectCompositionTests {
  /// A store that returns `effect` for "go" and appends every other action to its state.
  func run(_ effect: Effect<String>) async -> [String] {
    let store = Store(initialState: [String]()) {
      Reduce<[String], String> { state, action in
        if action == "go" { return effect }
        state.append(action)
        return .none
      }
    }
    await store.send("go").finish()
    return store.state
  }

  @Test func noneIsAbsorbedByEveryCombination() {
    #expect(Effect<Int>.none.isNone)
    #expect(!Effect<Int>.send(1).isNone)
    #expect(Effect<Int>.merge([]).isNone)
    #expect(Effect<Int>.merge(.none, .none).isNone)
    #expect(Effect<Int>.concatenate([Effect<Int>]()).isNone)
    #expect(Effect<Int>.none.concatenate(with: .none).isNone)
    #expect(Effect<Int>.none.map { "\($0)" }.isNone)
    #expect(Effect<Int>.none.cancellable(id: "load").isNone)
    #expect(Effect<Int>.none.namespaced("row").isNone)
    // Cancelling what runs under the id is work, even with nothing new to start.
    #expect(!Effect<Int>.none.cancellable(id: "load", cancelInFlight: true).isNone)
    #expect(!Effect<Int>.cancel(id: "load").isNone)
  }

  @Test func noneOnEitherSideOfAConcatenationLeavesTheOtherAlone() async {
    #expect(await run(Effect.none.concatenate(with: .send("a"))) == ["a"])
    #expect(await run(Effect.send("a").concatenate(with: .none)) == ["a"])
    #expect(await run(Effect.send("a").merge(with: .none)) == ["a"])
  }

  @Test func anEffectMergedWithAMergeRunsFirst() async {
    #expect(await run(Effect.send("1").merge(with: .merge(.send("2"), .send("3")))) == ["1", "2", "3"])
  }

  @Test func combiningAListKeepsItsOrderAndDropsItsNones() async {
    let late = Effect<String>.run { send in
      try? await Task.sleep(for: .milliseconds(20))
      await send("1")
    }
    let steps: [Effect<String>] = [.none, late, .concatenate(.send("2"), .send("3")), .none, .send("4")]
    #expect(await run(.concatenate(steps)) == ["1", "2", "3", "4"])
    let parts: [Effect<String>] = [.none, .send("1"), .merge(.send("2"), .send("3")), .none, .send("4")]
    #expect(await run(.merge(parts)) == ["1", "2", "3", "4"])
    #expect(await run(.merge([.none, .send("1")])) == ["1"])
    // Many at once (a `forEach` removing thousands of elements cancels each one's effects).
    let many = (0..<20_000).map { Effect<String>.send(String($0)) }
    #expect(await run(.merge(many)) == (0..<20_000).map(String.init))
    #expect(await run(.concatenate(many)) == (0..<20_000).map(String.init))
  }

  @Test func concatenatingConcatenationsKeepsEveryStepInOrder() async {
    let late = Effect<String>.run { send in
      try? await Task.sleep(for: .milliseconds(20))
      await send("1")
    }
    #expect(await run(late.concatenate(with: .concatenate(.send("2"), .send("3")))) == ["1", "2", "3"])
    #expect(await run(Effect.concatenate(late, .send("2")).concatenate(with: .send("3"))) == ["1", "2", "3"])
    #expect(
      await run(Effect.concatenate(late, .send("2")).concatenate(with: .concatenate(.send("3"), .send("4"))))
        == ["1", "2", "3", "4"])
  }

  @Test func mapKeepsAConcatenationInSequence() async {
    let inner = Effect<Int>.concatenate(
      .run { send in
        try? await Task.sleep(for: .milliseconds(20))
        await send(1)
      },
      .send(2))
    #expect(await run(inner.map { "mapped \($0)" }) == ["mapped 1", "mapped 2"])
  }

  @Test func aChildsConcatenationReachesTheParentInSequence() async {
    struct Child: Reducer {
      enum Action: Equatable, Sendable { case go, first, second }
      func reduce(into state: inout [String], action: Action) -> Effect<Action> {
        switch action {
        case .go:
          return .concatenate(
            .run { send in
              try? await Task.sleep(for: .milliseconds(20))
              await send(.first)
            },
            .send(.second))
        case .first, .second:
          state.append("\(action)")
          return .none
        }
      }
    }
    enum Action: Equatable, Sendable { case child(Child.Action) }
    let childPath = CasePath<Action, Child.Action>(embed: Action.child) {
      if case .child(let action) = $0 { action } else { nil }
    }
    let store = Store(initialState: [String]()) {
      Scope(state: \.self, action: childPath) { Child() }
    }
    await store.send(.child(.go)).finish()
    #expect(store.state == ["first", "second"])
  }

  @Test func cancellingAConcatenationCancelsTheStepItIsIn() async {
    let log = Log<String>()
    let gate = Gate()
    let store = Store(initialState: [String]()) {
      Reduce<[String], String> { state, action in
        if action == "go" {
          return .concatenate(
            .run { _ in
              log.append("first started")
              await gate.open()
              do {
                try await Task.sleep(for: .seconds(30))
                log.append("first finished")
              } catch {
                log.append("first cancelled")
              }
            },
            .send("second"))
        }
        state.append(action)
        return .none
      }
    }
    let task = store.send("go")
    await gate.wait()
    task.cancel()
    await task.finish()
    #expect(await eventually { log.values == ["first started", "first cancelled"] })
    #expect(store.state == [])
  }

  /// Steps that finish at once (sends; a task cancelled at once) are delivered within the
  /// `send` that started the concatenation, as a merge's are, in order, before what
  /// follows it; from the first step that leaves a task running, the rest wait for it.
  @Test func aConcatenationsStepsThatFinishAtOnceAreDeliveredBeforeSendReturns() async {
    let store = Store(initialState: [String]()) {
      Reduce<[String], String> { state, action in
        switch action {
        case "go":
          return .merge(.concatenate(.send("1"), .send("2")), .send("3"))
        case "cancelled":
          // A step whose task is cancelled at once is over at once.
          let forever = Effect<String>.run { _ in try await Task.sleep(for: .seconds(60)) }
          return .concatenate(.merge(forever.cancellable(id: "forever"), .cancel(id: "forever")), .send("7"))
        case "mixed":
          return .concatenate(
            .send("4"),
            .run { send in
              try? await Task.sleep(for: .milliseconds(20))
              await send("5")
            }
            .cancellable(id: "step"),
            .send("6"))
        default:
          state.append(action)
          return .none
        }
      }
    }
    #expect(store.send("go").isEmpty)
    #expect(store.state == ["1", "2", "3"])
    store.send("cancelled")
    #expect(store.state == ["1", "2", "3", "7"])
    #expect(!store.send("mixed").isEmpty)
    #expect(store.state == ["1", "2", "3", "7", "4"])
    #expect(await eventually { store.state == ["1", "2", "3", "7", "4", "5", "6"] })
  }

  /// Effects that start no task (sends, merges, concatenations, wrapped or mapped, and
  /// the effects of the actions they send) all run within the `send` that returned them,
  /// depth first: an action sent is reduced, and its own effect run, before the next part;
  /// a cancellation on the way (by id, or of a namespace) stops the concatenations it
  /// names. Checked on random trees against those rules written out as a recursion.
  @Test func synchronousEffectsOfAnyShapeRunDepthFirstWithinTheSend() async {
    var random = RandomEffects(seed: 0x2545_F491_4F6C_DD1D, withTasks: false)
    for _ in 0..<5_000 {
      let trees = random.reducer()
      let store = Store(initialState: [Int]()) { trees.reducer }
      let task = store.send(0)
      #expect(store.state == trees.expected(0), "\(trees.trees)")
      await task.finish()
      #expect(store.state == trees.expected(0))
    }
  }

  /// With tasks among them (`run`, alone or as steps), every action still arrives once,
  /// and every effect ends.
  @Test func everyActionOfEffectsOfAnyShapeArrivesOnce() async {
    var random = RandomEffects(seed: 0x9E37_79B9_7F4A_7C15, withTasks: true)
    for _ in 0..<300 {
      let trees = random.reducer()
      let store = Store(initialState: [Int]()) { trees.reducer }
      let expected = trees.expected(0).sorted()
      store.send(0)
      let arrived = await eventually { store.state.count >= expected.count }
      #expect(arrived && store.state.sorted() == expected, "\(trees.trees)")
      if !arrived { return }
    }
  }

  /// A concatenation inside another's step (kept apart by a wrapper) is waited for,
  /// whichever of its steps leaves a task running.
  @Test(arguments: [false, true])
  func aNestedConcatenationIsWaitedFor(runningFirst: Bool) async {
    let late = Effect<String>.run { send in
      try? await Task.sleep(for: .milliseconds(20))
      await send("late")
    }
    let inner: [Effect<String>] = runningFirst ? [late, .send("at once")] : [.send("at once"), late]
    let store = Store(initialState: [String]()) {
      Reduce<[String], String> { state, action in
        if action == "go" {
          return .concatenate(.concatenate(inner).cancellable(id: "inner"), .send("after"))
        }
        state.append(action)
        return .none
      }
    }
    await store.send("go").finish()
    #expect(store.state == (runningFirst ? ["late", "at once", "after"] : ["at once", "late", "after"]))
  }

  /// A step that cancels its own concatenation stops it, whether the steps are started
  /// at once or by the concatenation's task.
  @Test(arguments: [false, true])
  func aStepThatCancelsItsConcatenationEndsIt(afterATask: Bool) async {
    let store = Store(initialState: [String]()) {
      Reduce<[String], String> { state, action in
        switch action {
        case "go":
          let first: Effect<String> = afterATask ? .run { _ in } : .none
          return .concatenate(first, .send("stop"), .send("late")).cancellable(id: "flow")
        case "stop":
          state.append(action)
          return .cancel(id: "flow")
        default:
          state.append(action)
          return .none
        }
      }
    }
    await store.send("go").finish()
    #expect(await eventually { store.state == ["stop"] })
    for _ in 0..<20 { await Task.yield() }
    #expect(store.state == ["stop"])
  }

  /// A step that sends an action is over once the action is reduced: what that action
  /// starts is its own (as when a `run` sends it), not part of the concatenation. The
  /// next step does not wait for it, and cancelling the concatenation does not reach it;
  /// whether the step is started at once or by the concatenation's task.
  @Test(arguments: [false, true])
  func aConcatenationNeitherWaitsForNorCancelsTheEffectsOfTheActionsItSends(afterATask: Bool) async {
    let gate = Gate()
    let store = Store(initialState: [String]()) {
      Reduce<[String], String> { state, action in
        switch action {
        case "go":
          let first: Effect<String> = afterATask ? .run { _ in } : .none
          return .concatenate(first, .send("load"), .send("next"), .run { _ in await gate.wait() })
            .cancellable(id: "flow")
        case "load":
          state.append(action)
          return .run { send in
            await gate.wait()
            await send("loaded")
          }
        case "stop":
          return .cancel(id: "flow")
        default:
          state.append(action)
          return .none
        }
      }
    }
    store.send("go")
    #expect(await eventually { store.state == ["load", "next"] })
    // Stops the concatenation's last step; "load"'s effect is not marked "flow".
    store.send("stop")
    await gate.open()
    #expect(await eventually { store.state == ["load", "next", "loaded"] })
  }
}
