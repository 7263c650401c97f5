public import AppFeature
public import Composable
public import Foundation
public import IdentifiedCollections
import MeetingFeature
public import Models
import StandupDetail

/// The screens that were open when the app quit, by ID, so that the next launch opens them
/// again: which standups' detail screens and which past meetings.
///
/// A recorder is never remembered (a meeting is not resumed hours later), and a screen whose
/// standup or meeting is gone by the next launch is not restored, nor anything above it.
///
/// ```swift
/// let session = Session(path: store.state.path)
/// try session.write(to: AppFolders(environment: environment).sessionFile!)
/// // next launch:
/// let path = try Session.read(from: url)?.path(in: standups) ?? []
/// ```
public struct Session: Codable, Equatable, Sendable {
  /// The version of this file's format.
  public var formatVersion = 1

  /// The screens on the stack, bottom first.
  public var screens: [Screen]

  /// A remembered screen.
  public enum Screen: Codable, Equatable, Sendable {
    /// A standup's detail screen.
    case detail(standup: Standup.ID)
    /// A past meeting of a standup.
    case meeting(standup: Standup.ID, meeting: Meeting.ID)
  }

  /// The session of a stack: its detail and meeting screens, up to the first recorder.
  public init(path: StackState<AppFeature.Path.State>) {
    var screens: [Screen] = []
    for element in path {
      switch element {
      case .detail(let detail):
        screens.append(.detail(standup: detail.standup.id))
      case .meeting(let meeting):
        screens.append(.meeting(standup: meeting.standup.id, meeting: meeting.meeting.id))
      case .record:
        // NB: Whatever is above a recorder was opened from it; none of it is restored.
        self.screens = screens
        return
      }
    }
    self.screens = screens
  }

  /// The screens to open over `standups`: as many remembered screens, from the bottom, as
  /// still exist.
  public func path(in standups: IdentifiedArrayOf<Standup>) -> [AppFeature.Path.State] {
    var path: [AppFeature.Path.State] = []
    for screen in screens {
      switch screen {
      case .detail(let id):
        guard let standup = standups[id: id] else { return path }
        path.append(.detail(StandupDetail.State(standup: standup)))
      case .meeting(let standupID, let meetingID):
        guard let standup = standups[id: standupID], let meeting = standup.meetings[id: meetingID]
        else { return path }
        path.append(.meeting(MeetingFeature.State(meeting: meeting, standup: standup)))
      }
    }
    return path
  }

  /// Reads a session file.
  ///
  /// - Returns: The session, or `nil` when there is no file.
  /// - Throws: ``SessionError`` when the file exists but cannot be read or is not a session.
  public static func read(from url: URL) throws(SessionError) -> Session? {
    guard FileManager.default.fileExists(atPath: url.path) else { return nil }
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch {
      throw SessionError(path: url.path, reason: "it could not be read")
    }
    do {
      let session = try JSONDecoder().decode(Session.self, from: data)
      guard session.formatVersion == 1 else {
        throw SessionError(
          path: url.path, reason: "it has format version \(session.formatVersion)")
      }
      return session
    } catch let error as SessionError {
      throw error
    } catch {
      throw SessionError(path: url.path, reason: "it is not a session file")
    }
  }

  /// Writes the session, creating its folder (readable only by the user) when needed; the
  /// file is replaced whole, never left half written.
  public func write(to url: URL) throws {
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
      attributes: [.posixPermissions: 0o700])
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    try encoder.encode(self).write(to: url, options: .atomic)
  }
}

/// A session file that exists but could not be used; the app starts on the list and says so.
public struct SessionError: Error, Equatable, CustomStringConvertible {
  /// The file.
  public var path: String
  /// What is wrong with it, in words.
  public var reason: String

  /// Creates the error for a file.
  public init(path: String, reason: String) {
    self.path = path
    self.reason = reason
  }

  /// The problem, for the status line.
  public var description: String {
    "The open screens were not restored: \(reason) (\(path))."
  }
}
