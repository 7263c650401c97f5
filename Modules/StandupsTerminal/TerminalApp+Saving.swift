// Saving what the user did, as the terminal front end asks: a flush before quitting or on a
// signal, whether anything is left unsaved and why, and a meeting in progress ended and kept
// when the app must stop at once.

extension TerminalApp {
  /// Writes any change not saved yet, and waits until it is written (or failed); with a
  /// `limit`, waits at most that long on the real clock, and the writes go on meanwhile.
  ///
  /// - Returns: Whether the flush finished.
  @discardableResult
  public func flush(waitingAtMost limit: Duration? = nil) async -> Bool {
    let flushing = store.send(.flushPendingWrites)
    guard let limit else {
      await flushing.finish()
      return true
    }
    return await waitAtMost(limit) { await flushing.finish() }
  }

  /// Whether the standups have changes that are not in the data file (after a ``flush()``).
  public var hasUnsavedChanges: Bool {
    store.state.storage.hasChangesNotInTheDataFile
  }

  /// Why the changes not in the data file are not there, in the app's words.
  public var unsavedChangesProblem: String {
    // NB: With no problem left on the status line, what is not saved is a change that was set
    // aside because the database could not take it as it is, which its alert said.
    store.state.storage.problem
      ?? "A change could not be saved to the database as it is, as the \"Not saved\" alert said."
  }

  /// Ends a meeting in progress and keeps what was said so far, as "Save and end" would; for
  /// when the app must stop at once (the terminal closed, the system shutting down).
  public func saveMeetingInProgress() async {
    guard let id = store.state.app.path.ids.last,
      let meeting = store.state.app.path[id: id]?[case: \.record], !meeting.isEnded
    else { return }
    // NB: The transcript streams what is typed; the meeting ends with all of it, whether or
    // not its last result has arrived.
    if let transcript = transcript.currentTranscript, transcript != meeting.transcript {
      store.send(.app(.path(.element(id: id, action: .record(.speechResult(transcript))))))
    }
    if meeting.alert == nil {
      store.send(.app(.path(.element(id: id, action: .record(.endMeetingButtonTapped)))))
    }
    await store.send(
      .app(.path(.element(id: id, action: .record(.alert(.presented(.confirmSave))))))
    )
    .finish()
  }
}
