import Core
import TestSupport
import Testing

@MainActor
struct StoreTests {
  @Test func sendMutatesStateSynchronously() {
    let store = Store(initialState: Counter.State()) { Counter() }
    store.send(.increment)
    store.send(.increment)
    #expect(store.state.count == 2)
    #expect(store.count == 2)
  }

  /// A root store builds its reducer's body once; a child's body is built for each
  /// action that reaches it (documented on `Reducer`).
  @Test func aRootsBodyIsBuiltOnceAndAChildsForEachActionThatReachesIt() {
    final class Counts: @unchecked Sendable { var body = 0 }
    struct Feature: Reducer {
      let counts: Counts
      var body: some Reducer<Int, Bool> {
        let _ = counts.body += 1
        Reduce { state, _ in
          state += 1
          return .none
        }
      }
    }
    struct Host: Reducer {
      let counts: Counts
      var body: some Reducer<Int, Bool> {
        Scope(state: \.self, action: CasePath(embed: { $0 }, extract: { $0 })) { Feature(counts: counts) }
      }
    }
    let root = Counts()
    let store = Store(initialState: 0, reducer: Feature(counts: root))
    for _ in 0..<100 { store.send(true) }
    #expect(store.state == 100)
    #expect(root.body == 1)
    let child = Counts()
    let host = Store(initialState: 0) { Host(counts: child) }
    for _ in 0..<100 { host.send(true) }
    #expect(host.state == 100)
    #expect(child.body == 100)
  }

  @Test func synchronousSendEffectsRunBeforeSendReturnsInOrder() {
    let store = Store(initialState: [String]()) {
      Reduce<[String], String> { state, action in
        state.append(action)
        switch action {
        case "start": return .merge(.send("a"), .send("b"))
        case "a": return .send("a.1")
        default: return .none
        }
      }
    }
    store.send("start")
    #expect(store.state == ["start", "a", "a.1", "b"])
  }

  @Test func aLongChainOfSynchronousSendsEndsWithoutExhaustingTheStack() async {
    // Each action's effect sends the next: 50,000 levels, far past what a recursive walk
    // of the effects took before the stack ran out (~5,000 in a debug build).
    let issues = await collectingIssues {
      let store = Store(initialState: 0) {
        Reduce<Int, Int> { state, action in
          state += 1
          return action > 0 ? .merge(.send(action - 1), .none) : .none
        }
      }
      store.send(50_000)
      #expect(store.state == 50_001)
    }
    #expect(issues == [])
  }

  /// A reducer that reaches its own store (through a reference it captured) and sends:
  /// reducing there would change the state while the reducer changes it (one of the two
  /// changes was lost in a release build). The action is reported, and runs once the
  /// reducer has returned, as if it had returned `.send` first; through a scoped store too.
  /// Each time, only the actions sent that time.
  @Test func aSendFromInsideTheReducerIsReportedAndRunsOnceItReturns() async {
    final class Reference: @unchecked Sendable { var store: Store<[String], String>? }
    let reference = Reference()
    let issues = await collectingIssues {
      let store = Store(initialState: [String]()) {
        Reduce<[String], String> { state, action in
          state.append("start \(action)")
          switch action {
          case "outer":
            reference.store?.send("inner")
            reference.store?.scope(state: \.self, action: { "scoped \($0)" }).send("inner")
            state.append("end \(action)")
            return .send("outer's effect")
          case "inner":
            return .send("inner's effect")
          default:
            return .none
          }
        }
      }
      reference.store = store
      let once = [
        "start outer", "end outer", "start inner", "start inner's effect", "start scoped inner",
        "start outer's effect",
      ]
      let task = store.send("outer")
      #expect(task.isEmpty)
      #expect(store.state == once)
      // Again: only this time's sends run (those of the first time are not run twice).
      store.send("outer")
      #expect(store.state == once + once)
      reference.store = nil
    }
    #expect(
      issues
        == ["inner", "scoped inner", "inner", "scoped inner"].map {
          """
          A store was sent an action while its reducer was running (a reducer that reaches a \
          store, through a reference it captured):
            "\($0)"
          It runs once the reducer returns. Return 'Effect.send' from the reducer instead: a \
          reducer changes its state and returns effects, and does not send.
          """
        })
  }

  @Test func anEndlessLoopOfSynchronousSendsIsReportedAndStopped() async {
    enum Action: Equatable { case again, other }
    let issues = await collectingIssues {
      let store = Store(initialState: [0, 0]) {
        Reduce<[Int], Action> { state, action in
          switch action {
          case .again:
            state[0] += 1
            return .send(.again)
          case .other:
            state[1] += 1
            return .none
          }
        }
      }
      store.send(.again)
      // The action sent from outside, then a chain of 100,000 sent ones; the next dropped.
      #expect(store.state == [100_001, 0])
      store.send(.other)
      #expect(store.state == [100_001, 1])
    }
    #expect(
      issues == [
        """
        A chain of 100000 actions sent synchronously, each by the effect of the one before, \
        did not end; the rest were dropped. A reducer probably answers an action by sending \
        it (or one that leads back to it) again. The last:
          .again
        """
      ])
  }

  @Test func actionsSentFromAnEffectAreProcessedInOrder() async {
    let store = Store(initialState: [Int]()) {
      Reduce<[Int], Int> { state, action in
        state.append(action)
        guard action == 0 else { return .none }
        return .run { send in
          for value in 1...5 { await send(value) }
        }
      }
    }
    await store.send(0).finish()
    #expect(store.state == [0, 1, 2, 3, 4, 5])
  }

  @Test func aSendInsideAnEffectCompletesBeforeTheNextLine() async {
    let observed = Log<Int>()
    let store = Store(initialState: 0) {
      Reduce<Int, Int> { state, action in
        if action == -1 {
          return .run { send in
            await send(10)
            await send(20)
          }
        }
        state += action
        observed.append(state)
        return .none
      }
    }
    await store.send(-1).finish()
    #expect(observed.values == [10, 30])
    #expect(store.state == 30)
  }

  @Test func concatenateRunsInSequenceWhileMergeRunsConcurrently() async {
    // The first effect can only finish once the second has run: merged, both run and
    // the second's action comes first; concatenated, the first must finish alone, so the
    // gate is opened by a timer instead and the order is first, second.
    func makeStore(
      concatenated: Bool
    ) -> Store<[String], String> {
      let gate = Gate()
      return Store(initialState: []) {
        Reduce<[String], String> { state, action in
          guard action == "go" else {
            state.append(action)
            return .none
          }
          let first = Effect<String>.run { send in
            if concatenated {
              try await Task.sleep(for: .milliseconds(20))
            } else {
              await gate.wait()
            }
            await send("first")
          }
          let second = Effect<String>.run { send in
            await send("second")
            await gate.open()
          }
          return concatenated ? .concatenate(first, second) : .merge(first, second)
        }
      }
    }
    let concatenated = makeStore(concatenated: true)
    await concatenated.send("go").finish()
    #expect(concatenated.state == ["first", "second"])

    let merged = makeStore(concatenated: false)
    await merged.send("go").finish()
    #expect(merged.state == ["second", "first"])
  }

  @Test func concatenateOfSynchronousSendsKeepsOrder() async {
    let store = Store(initialState: [String]()) {
      Reduce<[String], String> { state, action in
        if action == "go" { return .concatenate(.send("1"), .send("2"), .send("3")) }
        state.append(action)
        return .none
      }
    }
    await store.send("go").finish()
    #expect(store.state == ["1", "2", "3"])
  }

  @Test func mergingMergedEffectsKeepsTheOrderOfTheirSynchronousSends() async {
    let store = Store(initialState: [String]()) {
      Reduce<[String], String> { state, action in
        if action == "go" {
          return .merge(.merge(.send("1"), .send("2")), .merge(.send("3"), .send("4")))
            .merge(with: .merge(.send("5"), .send("6")))
        }
        state.append(action)
        return .none
      }
    }
    await store.send("go").finish()
    #expect(store.state == ["1", "2", "3", "4", "5", "6"])
  }

  @Test func aStoreTaskWithoutEffectsIsNotCancelled() {
    let store = Store(initialState: 0) {
      Reduce<Int, Int> { state, action in
        state = action
        return .none
      }
    }
    let task = store.send(1)
    #expect(task.isEmpty && !task.isCancelled)
  }

  @Test func cancellingTheTaskThatAwaitsFinishCancelsTheEffects() async {
    let store = Store(initialState: 0) {
      Reduce<Int, Int> { state, action in
        if action == 0 {
          return .run { send in
            try await Task.sleep(for: .seconds(5))  // only if the cancellation is lost
            await send(1)
          }
        }
        state = action
        return .none
      }
    }
    let task = store.send(0)
    let waiter = Task { await task.finish() }
    waiter.cancel()
    await waiter.value
    #expect(task.isCancelled)
    #expect(store.state == 0)
  }

  @Test func aBodyRunsItsReducersInOrderAndHonoursIfAndElse() async {
    struct Feature: Reducer {
      let extra: Bool
      var body: some Reducer<[String], String> {
        Reduce { state, action in
          if action == "go" { return .send("first") }
          state.append(action)
          return .none
        }
        Reduce { _, action in action == "go" ? .send("second") : .none }
        if extra {
          Reduce { _, action in action == "go" ? .send("extra") : .none }
        }
        if extra {
          Reduce { _, action in action == "go" ? .send("then") : .none }
        } else {
          Reduce { _, action in action == "go" ? .send("else") : .none }
        }
      }
    }
    let with = Store(initialState: [String](), reducer: Feature(extra: true))
    await with.send("go").finish()
    #expect(with.state == ["first", "second", "extra", "then"])
    let without = Store(initialState: [String](), reducer: Feature(extra: false))
    await without.send("go").finish()
    #expect(without.state == ["first", "second", "else"])
  }

  @Test func combineReducersAndAnErasedReducerRunLikeTheirParts() async {
    struct Tag: Reducer {
      let name: String
      func reduce(into state: inout [String], action: String) -> Effect<String> {
        if action == "go" { return .send("\(name) answered") }
        state.append("\(name) saw \(action)")
        return .none
      }
    }
    struct Feature: Reducer {
      var body: some Reducer<[String], String> {
        CombineReducers {
          Tag(name: "a")
          Reduce(Tag(name: "b"))
        }
        Tag(name: "c")
      }
    }
    let store = Store(initialState: [String](), reducer: Feature())
    await store.send("go").finish()
    #expect(
      store.state == [
        "a saw a answered", "b saw a answered", "c saw a answered",
        "a saw b answered", "b saw b answered", "c saw b answered",
        "a saw c answered", "b saw c answered", "c saw c answered",
      ])
  }

  @Test func anEmptyBodyChangesNothingAndStartsNothing() {
    struct Feature: Reducer {
      var body: some Reducer<Int, Int> {}
    }
    let store = Store(initialState: 7, reducer: Feature())
    let task = store.send(1)
    #expect(store.state == 7 && task.isEmpty)
  }

  @Test func storeTaskCancelDropsLateActions() async {
    let store = Store(initialState: 0) {
      Reduce<Int, Int> { state, action in
        if action == 0 {
          return .run { send in
            try await Task.sleep(for: .seconds(5))
            await send(1)
          }
        }
        state = action
        return .none
      }
    }
    let task = store.send(0)
    #expect(!task.isEmpty)
    task.cancel()
    await task.finish()
    #expect(task.isCancelled)
    #expect(store.state == 0)
  }

  @Test func effectMapTransformsActions() async {
    let store = Store(initialState: [String]()) {
      Reduce<[String], String> { state, action in
        if action == "go" {
          let inner: Effect<Int> = .merge(.send(1), .run { send in await send(2) })
          return inner.map { "mapped \($0)" }
        }
        state.append(action)
        return .none
      }
    }
    await store.send("go").finish()
    #expect(store.state == ["mapped 1", "mapped 2"])
  }

  @Test func unhandledErrorInRunIsReported() async {
    struct Boom: Error {}
    let issues = await collectingIssues {
      let store = Store(initialState: 0) {
        Reduce<Int, Int> { _, _ in .run { _ in throw Boom() } }
      }
      await store.send(0).finish()
    }
    #expect(issues.count == 1)
    #expect(issues.first?.contains("An 'Effect.run' threw an error it did not handle: Boom()") == true)
  }

  @Test func catchHandlerReceivesTheErrorAndCanSend() async {
    struct Boom: Error {}
    let store = Store(initialState: "") {
      Reduce<String, String> { state, action in
        if action == "go" {
          return .run { _ in
            throw Boom()
          } catch: { error, send in
            await send("caught \(error)")
          }
        }
        state = action
        return .none
      }
    }
    await store.send("go").finish()
    #expect(store.state == "caught Boom()")
  }

  /// An effect that logs "start", then "cancelled" when cancelled (or "finished" after ten
  /// seconds).
  /// An effect that ends only when cancelled: its sleep outlasts any run, however slow (a
  /// ten-second one ended by itself in a loaded ThreadSanitizer run).
  private func sleepsUntilCancelled<Action>(logging log: Log<String>) -> Effect<Action> {
    .run { _ in
      log.append("start")
      do {
        try await Task.sleep(for: .seconds(86_400))
        log.append("finished")
      } catch {
        log.append("cancelled")
      }
    }
  }

  @Test func releasingTheStoreCancelsItsEffects() async {
    let started = Log<String>()
    var store: Store<Int, Int>? = Store(initialState: 0) {
      Reduce<Int, Int> { _, _ in sleepsUntilCancelled(logging: started) }
    }
    let task = store!.send(0)
    #expect(await eventually { started.values == ["start"] })
    store = nil
    await task.finish()
    #expect(started.values == ["start", "cancelled"])
  }

  @Test func anObservationKeptAfterTheStoreIsReleasedDoesNotKeepItsEffectsRunning() async {
    let started = Log<String>()
    var store: Store<Int, Int>? = Store(initialState: 0) {
      Reduce<Int, Int> { _, _ in sleepsUntilCancelled(logging: started) }
    }
    let observation = store!.observe { _ in }
    let task = store!.send(0)
    #expect(await eventually { started.values == ["start"] })
    store = nil
    await task.finish()
    #expect(started.values == ["start", "cancelled"])
    observation.cancel()  // harmless once the store is gone
  }

  @Test func anObservationOfAScopedStoreKeptAfterTheStoresAreReleasedDoesNotKeepEffectsRunning()
    async
  {
    let started = Log<String>()
    var store: Store<Parent.State, Parent.Action>? = Store(initialState: Parent.State()) {
      Reduce<Parent.State, Parent.Action> { _, _ in sleepsUntilCancelled(logging: started) }
    }
    var child: Store<Counter.State, Counter.Action>? = store!.scope(
      state: \.child, action: Parent.Action.child)
    var count: [Int] = []
    let observation = child!.observe({ $0.count }) { count.append($0) }
    let task = child!.send(.increment)
    #expect(await eventually { started.values == ["start"] })
    store = nil
    child = nil
    await task.finish()
    #expect(started.values == ["start", "cancelled"])
    #expect(count.isEmpty)
    observation.cancel()
  }

  @Test func aScopedStoreKeepsTheEffectsRunningUntilItIsReleasedToo() async {
    let started = Log<String>()
    var store: Store<Parent.State, Parent.Action>? = Store(initialState: Parent.State()) {
      Reduce<Parent.State, Parent.Action> { _, _ in sleepsUntilCancelled(logging: started) }
    }
    var child: Store<Counter.State, Counter.Action>? = store!.scope(
      state: \.child, action: Parent.Action.child)
    let task = child!.send(.increment)
    #expect(await eventually { started.values == ["start"] })
    store = nil  // the child store still reads from and sends into the root's state
    try? await Task.sleep(for: .milliseconds(50))
    #expect(started.values == ["start"])
    #expect(child?.state.count == 0)
    child = nil
    await task.finish()
    #expect(started.values == ["start", "cancelled"])
  }
}
