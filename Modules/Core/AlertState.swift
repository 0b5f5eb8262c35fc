/// A button of an alert or a confirmation dialog: its label, its role, and the action
/// choosing it sends.
///
/// A button without an action only closes what it is in. Values, not views: whatever
/// draws them (a terminal box, SwiftUI's `alert`) decides how a role looks.
public struct ButtonState<Action> {
  /// What a button means, for whatever draws it.
  public enum Role: Sendable, Hashable {
    /// Closes without doing anything: what Escape chooses.
    case cancel
    /// Does something that cannot be undone.
    case destructive
  }

  /// The button's role, if it has one.
  public var role: Role?
  /// The text on the button.
  public var label: String
  /// What choosing the button sends, or `nil` for a button that only closes.
  public var action: Action?

  /// Creates a button.
  ///
  /// - Parameters:
  ///   - role: The button's role, if any.
  ///   - label: The text on the button.
  ///   - action: What choosing it sends; `nil` to only close.
  public init(role: Role? = nil, _ label: String, action: Action? = nil) {
    self.role = role
    self.label = label
    self.action = action
  }

  /// What the presenting parent receives when this button is chosen: the button's action,
  /// or `.dismiss` for a button without one. Send it as the alert's action:
  /// `store.send(.alert(button.choice))`.
  public var choice: PresentationAction<Action> {
    action.map { .presented($0) } ?? .dismiss
  }
}

/// An alert as a value: a title, an optional message and its buttons.
///
/// Kept in a feature's optional state and presented with
/// ``Reducer/ifLet(_:action:fileID:filePath:line:column:)-(_,(PresentationAction<ChildAction>)->Action,_,_,_,_)``; `Equatable` when its actions
/// are, so a `TestStore` compares and diffs it like any state.
///
/// ```swift
/// state.alert = AlertState(
///   title: "Favourites could not be saved",
///   message: "The folder is read-only.",
///   buttons: [ButtonState("Try again", action: .retrySave), ButtonState(role: .cancel, "Not now")])
/// ```
public struct AlertState<Action>: ButtonPrompt {
  /// The alert's title.
  public var title: String
  /// The text under the title, if any.
  public var message: String?
  /// The buttons, in the order they are shown; never empty.
  public var buttons: [ButtonState<Action>]

  /// Creates an alert.
  ///
  /// - Parameters:
  ///   - title: The title.
  ///   - message: The text under it.
  ///   - buttons: The buttons; none gives the alert a single "OK" that only closes it.
  public init(title: String, message: String? = nil, buttons: [ButtonState<Action>] = []) {
    self.title = title
    self.message = message
    self.buttons = buttons.isEmpty ? [ButtonState(role: .cancel, "OK")] : buttons
  }
}

/// A confirmation dialog as a value: a question about something the user asked for, with
/// a button for each way to go on.
///
/// The same shape as ``AlertState``, kept apart because the two are shown differently (an
/// alert interrupts, a dialog offers choices about the user's own request), and presented
/// the same way.
public struct ConfirmationDialogState<Action>: ButtonPrompt {
  /// The dialog's title.
  public var title: String
  /// The text under the title, if any.
  public var message: String?
  /// The buttons, in the order they are shown; never empty.
  public var buttons: [ButtonState<Action>]

  /// Creates a confirmation dialog.
  ///
  /// - Parameters:
  ///   - title: The title (the question).
  ///   - message: The text under it.
  ///   - buttons: The buttons; none gives the dialog a single "Cancel" that only closes it.
  public init(title: String, message: String? = nil, buttons: [ButtonState<Action>] = []) {
    self.title = title
    self.message = message
    self.buttons = buttons.isEmpty ? [ButtonState(role: .cancel, "Cancel")] : buttons
  }
}

extension ButtonState: Equatable where Action: Equatable {}
extension ButtonState: Hashable where Action: Hashable {}
extension ButtonState: Sendable where Action: Sendable {}
extension AlertState: Equatable where Action: Equatable {}
extension AlertState: Hashable where Action: Hashable {}
extension AlertState: Sendable where Action: Sendable {}
extension ConfirmationDialogState: Equatable where Action: Equatable {}
extension ConfirmationDialogState: Hashable where Action: Hashable {}
extension ConfirmationDialogState: Sendable where Action: Sendable {}
