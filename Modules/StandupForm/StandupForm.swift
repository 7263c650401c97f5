public import CasePaths
public import Composable
import Dependencies
public import Foundation
import IssueReporting
public import Models

/// The form that creates and edits a standup: title, length, theme and attendees.
///
/// The list presents it to add a standup and the detail screen to edit one; both save
/// ``State/validatedStandup`` so that the two flows apply the same rules.
public struct StandupForm: Reducer {
  /// The standup being edited and where the keyboard focus is.
  public struct State: Equatable, Sendable {
    /// The field with keyboard focus.
    public var focus: Field?

    /// The standup as the form was given it, before the blank attendee it adds to one with none,
    /// so that saving applies only what the user changed (``edit``) — a name typed into that
    /// blank attendee included.
    public let original: Standup

    /// The standup as edited so far.
    public var standup: Standup

    /// A focusable field.
    public enum Field: Hashable, Sendable {
      /// The name of an attendee.
      case attendee(Attendee.ID)
      /// The standup's title.
      case title
    }

    /// The shortest and longest meeting the form allows, in minutes.
    public static let minutes = 5...30

    /// The most characters a title may have: more than any meeting's name needs, few enough for
    /// a list row. A front end states it beside the title.
    public static let titleLimit = 100

    /// Creates a form. A standup without attendees gets one blank attendee to fill in.
    public init(focus: Field? = .title, standup: Standup) {
      self.focus = focus
      self.original = standup
      var standup = standup
      if standup.attendees.isEmpty {
        @Dependency(\.uuid) var uuid
        standup.attendees.append(Attendee(id: Attendee.ID(uuid())))
      }
      self.standup = standup
    }

    /// The meeting's length in whole minutes, as the form shows it.
    public var durationInMinutes: Int {
      Int(standup.duration.components.seconds / 60)
    }

    /// The length, in minutes, that asking for `minutes` gives: `minutes` within ``minutes``, or
    /// `nil` when the length would not move the way asked. A length outside the range (a standup
    /// from a file) moves only toward it: a 1-minute standup stays as it is on "shorter" rather
    /// than jumping to 5 minutes. A front end shows a control for a way only when this allows it.
    ///
    /// ```swift
    /// state.length(changedTo: state.durationInMinutes - 1) != nil  // can it get shorter?
    /// ```
    public func length(changedTo minutes: Int) -> Int? {
      let current = durationInMinutes
      let allowed = min(max(minutes, Self.minutes.lowerBound), Self.minutes.upperBound)
      let asked = (minutes - current).signum()
      guard asked != 0, (allowed - current).signum() == asked else { return nil }
      return allowed
    }

    /// Whether the standup can be saved: it needs a title.
    public var isSaveable: Bool {
      // NB: Stops at the title's first visible character: a front end asks with every key, and
      // a title from a file can be megabytes long.
      standup.title.unicodeScalars.contains { !CharacterSet.whitespacesAndNewlines.contains($0) }
    }

    /// The standup as it should be saved: title and names trimmed, attendees without a name
    /// removed, but always at least one attendee so that a meeting has a speaker.
    public var validatedStandup: Standup {
      var standup = self.standup
      standup.title = standup.title.trimmingCharacters(in: .whitespacesAndNewlines)
      for index in standup.attendees.indices {
        standup.attendees[index].name = standup.attendees[index].name
          .trimmingCharacters(in: .whitespacesAndNewlines)
      }
      let firstAttendee = standup.attendees.first
      standup.attendees.removeAll { $0.name.isEmpty }
      if standup.attendees.isEmpty {
        @Dependency(\.uuid) var uuid
        standup.attendees.append(firstAttendee ?? Attendee(id: Attendee.ID(uuid())))
      }
      return standup
    }

    /// What the user changed, as the form validates it. Applied to the standup as it is when the
    /// form is saved, it keeps whatever changed elsewhere while the form was open.
    ///
    /// ```swift
    /// // The new title, and an attendee added elsewhere:
    /// let saved = form.edit.applied(to: current)
    /// ```
    public var edit: StandupEdit {
      var result = validatedStandup
      // NB: The blank attendee the form adds to a standup with none is the form's, not the
      // user's: it is saved once the user names it, and not before.
      if original.attendees.isEmpty, result.attendees.allSatisfy(\.name.isEmpty) {
        result.attendees = []
      }
      return StandupEdit(from: original, to: result)
    }
  }

  /// What happens in the form.
  @CasePathable
  public enum Action: Equatable, Sendable {
    case addAttendeeButtonTapped
    case attendeeNameChanged(id: Attendee.ID, name: String)
    case deleteAttendees(atOffsets: IndexSet)
    case durationChanged(minutes: Int)
    case focusChanged(State.Field?)
    case moveAttendees(fromOffsets: IndexSet, toOffset: Int)
    case themeChanged(Theme)
    case titleChanged(String)
  }

  @Dependency(\.uuid) var uuid

  /// Creates the form's reducer.
  public init() {}

  /// Edits the standup and moves the focus after attendees are added or removed.
  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .addAttendeeButtonTapped:
        let attendee = Attendee(id: Attendee.ID(uuid()))
        state.standup.attendees.append(attendee)
        state.focus = .attendee(attendee.id)
        return .none

      case .attendeeNameChanged(let id, let name):
        guard state.standup.attendees[id: id] != nil else {
          reportIssue("The form has no attendee \(id) to rename; the edit was dropped.")
          return .none
        }
        state.standup.attendees[id: id]?.name = name
        return .none

      case .deleteAttendees(let offsets):
        deleteAttendees(at: offsets, from: &state)
        return .none

      case .durationChanged(let minutes):
        guard let allowed = state.length(changedTo: minutes) else { return .none }
        state.standup.duration = .seconds(allowed * 60)
        return .none

      case .focusChanged(let focus):
        state.focus = focus
        return .none

      case .moveAttendees(let offsets, let destination):
        moveAttendees(at: offsets, to: destination, in: &state)
        return .none

      case .themeChanged(let theme):
        state.standup.theme = theme
        return .none

      case .titleChanged(let title):
        // NB: No edit lengthens a title past the limit; one already past it (from a file) may
        // shrink. Counted only as far as the limit, so a key costs the same however long it is.
        let isWithinLimit = title.dropFirst(State.titleLimit).isEmpty
        guard isWithinLimit || title.utf8.count <= state.standup.title.utf8.count else {
          return .none
        }
        state.standup.title = title
        return .none
      }
    }
  }

  /// Removes the attendees at `offsets` (ignoring offsets past the end), keeps the list from
  /// becoming empty, and moves focus to the attendee now nearest the first removed one.
  private func deleteAttendees(at offsets: IndexSet, from state: inout State) {
    let offsets = offsets.filteredIndexSet { state.standup.attendees.indices.contains($0) }
    guard let firstOffset = offsets.first else { return }
    state.standup.attendees.remove(atOffsets: offsets)
    if state.standup.attendees.isEmpty {
      state.standup.attendees.append(Attendee(id: Attendee.ID(uuid())))
    }
    let nearest = min(firstOffset, state.standup.attendees.count - 1)
    state.focus = .attendee(state.standup.attendees[nearest].id)
  }

  /// Moves the attendees at `offsets` (ignoring offsets past the end) to before the attendee at
  /// `destination` (the end at most), as a list's drag does; the focus stays on the attendee it
  /// was on, wherever that goes.
  private func moveAttendees(at offsets: IndexSet, to destination: Int, in state: inout State) {
    let offsets = offsets.filteredIndexSet { state.standup.attendees.indices.contains($0) }
    guard !offsets.isEmpty else { return }
    state.standup.attendees.move(
      fromOffsets: offsets, toOffset: min(max(destination, 0), state.standup.attendees.count))
  }
}
