import Foundation
public import IdentifiedCollections
public import Models

/// `count` standups of the size a team keeps, six attendees and a past meeting each, with IDs
/// and dates that are the same on every run: what the storage measurements fill a database with.
public func standupsToStore(count: Int) -> IdentifiedArrayOf<Standup> {
  IdentifiedArray(
    uniqueElements: (0..<count).map { index in
      Standup(
        id: Standup.ID(UUID(uuidString: String(format: "00000000-0000-0000-0000-%012X", index))!),
        attendees: IdentifiedArray(
          uniqueElements: (0..<6).map { attendee in
            Attendee(
              id: Attendee.ID(
                UUID(
                  uuidString: String(format: "00000000-0000-0000-%04X-%012X", attendee + 1, index))!
              ),
              name: "Attendee \(attendee)")
          }),
        meetings: [
          Meeting(
            id: Meeting.ID(
              UUID(uuidString: String(format: "00000000-0000-FFFF-0000-%012X", index))!),
            date: Date(timeIntervalSince1970: 1_800_000_000 + Double(index)),
            transcript: String(repeating: "Blob talked through the plan. ", count: 8))
        ],
        title: "Standup \(index)")
    })
}
