import Dependencies
import Foundation
import IdentifiedCollections
import Models
import Testing

struct StandupsFileTests {
  @Test func theDocumentedFixtureDecodes() throws {
    let url = try #require(
      Bundle.module.url(
        forResource: "standups-v1",
        withExtension: "json",
        subdirectory: "Fixtures"
      ))
    let file = try StandupsFile.decode(Data(contentsOf: url))

    #expect(file.standups.count == 2)
    let design = try #require(file.standups.first)
    #expect(design.id.rawValue == UUID(uuidString: "11111111-1111-1111-1111-111111111111"))
    #expect(design.title == "Design")
    #expect(design.theme == .seafoam)
    #expect(design.duration == .seconds(15 * 60))
    #expect(design.attendees.map(\.name) == ["Ada", "Grace"])
    #expect(
      design.meetings.map(\.transcript).first
        == "Ada shipped the timer. Grace is reviewing the form.")
    #expect(design.meetings.first?.date == Date(timeIntervalSince1970: 1_795_167_000))
    #expect(design.meetings.last?.date == Date(timeIntervalSince1970: 1_794_562_200.25))
    #expect(file.standups.last?.attendees.isEmpty == true)
  }

  @Test func everyTypeRoundTrips() throws {
    let standups: IdentifiedArrayOf<Standup> = [.mock, .engineeringMock, .productMock]
    let decoded = try StandupsFile.decode(StandupsFile(standups: standups).encoded())
    #expect(decoded.standups == standups)

    for theme in Theme.allCases {
      let data = try JSONEncoder().encode(theme)
      #expect(try JSONDecoder().decode(Theme.self, from: data) == theme)
    }
    let attendee = Standup.mock.attendees[0]
    #expect(
      try JSONDecoder().decode(Attendee.self, from: JSONEncoder().encode(attendee)) == attendee)
    let meeting = Meeting(
      id: Meeting.ID(UUID(0)),
      date: Date(timeIntervalSince1970: 1_700_000_000.5),
      transcript: "Half a second past."
    )
    #expect(try JSONDecoder().decode(Meeting.self, from: JSONEncoder().encode(meeting)) == meeting)
  }

  @Test func theEncodingHasTheDocumentedShape() throws {
    let data = try StandupsFile(standups: [.engineeringMock]).encoded()
    let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    #expect(json["formatVersion"] as? Int == 1)
    let standup = try #require((json["standups"] as? [[String: Any]])?.first)
    #expect(
      Set(standup.keys) == ["id", "title", "theme", "durationSeconds", "attendees", "meetings"])
    #expect(standup["durationSeconds"] as? Int == 600)
    #expect(standup["theme"] as? String == "periwinkle")

    let meetingData = try JSONEncoder().encode(Standup.mock.meetings[0])
    let meetingJSON = try #require(
      try JSONSerialization.jsonObject(with: meetingData) as? [String: Any])
    #expect(meetingJSON["date"] as? String == "2025-11-20T08:00:00Z")
  }

  @Test func malformedDataSaysWhere() {
    func error(decoding json: String) -> StandupsFileError? {
      do {
        _ = try StandupsFile.decode(Data(json.utf8))
        return nil
      } catch {
        return error
      }
    }

    #expect(
      error(decoding: "{ not json").map { "\($0)" }?.hasPrefix("The file is not valid JSON") == true
    )
    #expect(
      error(
        decoding:
          #"{"formatVersion": 1, "standups": [{"id": "11111111-1111-1111-1111-111111111111", "title": "A", "theme": "plaid", "durationSeconds": 60, "attendees": [], "meetings": []}]}"#
      )?.path == "standups[0].theme"
    )
    #expect(
      error(
        decoding:
          #"{"formatVersion": 1, "standups": [{"id": "11111111-1111-1111-1111-111111111111", "title": "A", "theme": "tan", "durationSeconds": 60, "attendees": [{"id": "22222222-2222-2222-2222-222222222222"}], "meetings": []}]}"#
      )?.path == "standups[0].attendees[0].name"
    )
    #expect(
      error(
        decoding:
          #"{"formatVersion": 1, "standups": [{"id": "11111111-1111-1111-1111-111111111111", "title": "A", "theme": "tan", "durationSeconds": -5, "attendees": [], "meetings": []}]}"#
      )?.path == "standups[0].durationSeconds"
    )
    #expect(
      error(
        decoding:
          #"{"formatVersion": 1, "standups": [{"id": "11111111-1111-1111-1111-111111111111", "title": "A", "theme": "tan", "durationSeconds": 60, "attendees": [], "meetings": [{"id": "33333333-3333-3333-3333-333333333333", "date": "yesterday", "transcript": ""}]}]}"#
      )?.path == "standups[0].meetings[0].date"
    )
    #expect(
      error(
        decoding:
          #"{"formatVersion": 1, "standups": [{"id": "11111111-1111-1111-1111-111111111111", "title": "A", "theme": "tan", "durationSeconds": 1e17, "attendees": [], "meetings": []}]}"#
      )?.path == "standups[0].durationSeconds"
    )
    #expect(
      error(decoding: #"{"formatVersion": 2, "standups": [{"renamed": true}]}"#)
        == .unsupportedVersion(2)
    )
    #expect(error(decoding: #"{"standups": []}"#)?.path == "formatVersion")
    #expect(error(decoding: #"{"formatVersion": 0, "standups": []}"#)?.path == "formatVersion")
  }

  @Test func aNewerFileThatStillReadsSaysSo() throws {
    let file = try StandupsFile.decode(
      Data(#"{"formatVersion": 3, "standups": [], "addedLater": [1, 2]}"#.utf8)
    )
    #expect(file.formatVersion == 3)
    #expect(file.isFromNewerRelease)
    #expect(try !StandupsFile.decode(StandupsFile(standups: []).encoded()).isFromNewerRelease)
  }

  @Test func errorsSpeakJSONNotSwift() {
    func message(decoding json: String) -> String {
      do {
        _ = try StandupsFile.decode(Data(json.utf8))
        return ""
      } catch {
        return error.description
      }
    }

    let wrongKind = message(decoding: #"{"formatVersion": 1, "standups": [3]}"#)
    #expect(wrongKind == "At standups[0]: Expected an object, but found a number.")
    let wrongText = message(decoding: #"{"formatVersion": 1, "standups": {"a": 1}}"#)
    #expect(wrongText == "At standups: Expected a list, but found an object.")
    let notJSON = message(decoding: "{ not json")
    #expect(notJSON.hasPrefix("The file is not valid JSON: "))
    for text in [wrongKind, wrongText, notJSON] {
      #expect(!text.contains("Dictionary"))
      #expect(!text.contains("Array<"))
      #expect(!text.contains("NSCocoaErrorDomain"))
    }
  }

  @Test func errorsReadAsSentences() {
    let error = StandupsFileError.malformed(path: "standups[0].theme", reason: "Unknown theme.")
    #expect(error.description == "At standups[0].theme: Unknown theme.")
  }
}

extension StandupsFileError {
  var path: String? {
    if case .malformed(let path, _) = self { return path }
    return nil
  }
}
