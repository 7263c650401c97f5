public import Models

/// What came of committing a change.
public enum ChangeOutcome: Equatable, Sendable {
  /// It is stored.
  case applied
  /// It edited a standup that is no longer stored (another instance deleted it), so nothing was
  /// written.
  case standupGone(Standup.ID)
  /// It is stored, and attendees it renamed, which another instance had removed meanwhile, were
  /// kept with their new names (``/Models/StandupEdit/attendeesRenamedButGone(in:)``).
  case renamedAttendeesKept(Standup.ID, [Attendee])
}
