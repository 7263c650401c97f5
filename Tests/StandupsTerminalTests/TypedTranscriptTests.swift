import SpeechClient
import StandupsTerminal
import Testing

struct TypedTranscriptTests {
  @Test func eachResultHoldsTheWholeTranscriptSoFar() async throws {
    let transcript = TypedTranscript()
    let client = transcript.client
    #expect(client.authorizationStatus() == .authorized)
    #expect(await client.requestAuthorization() == .authorized)
    #expect(transcript.submit("too early") == false)

    let stream = await client.startTranscription()
    #expect(transcript.isListening)
    #expect(transcript.submit("Blob: one"))
    var results = stream.makeAsyncIterator()
    #expect(try await results.next()?.transcript == "Blob: one")
    #expect(transcript.submit("Blob Jr: two"))
    #expect(try await results.next()?.transcript == "Blob: one\nBlob Jr: two")
  }

  @Test func linesTypedWhileTheMeetingIsOpenButNotYetListeningAreItsFirstResult() async throws {
    let transcript = TypedTranscript()
    transcript.openMeeting()
    #expect(transcript.isListening == false)
    #expect(transcript.submit("Blob: early"))
    transcript.setLineInProgress("Blob Jr")
    #expect(transcript.currentTranscript == "Blob: early\nBlob Jr")

    let stream = await transcript.client.startTranscription()
    #expect(transcript.isListening)
    var results = stream.makeAsyncIterator()
    #expect(try await results.next()?.transcript == "Blob: early\nBlob Jr")
    transcript.submit("Blob Jr: late")
    #expect(try await results.next()?.transcript == "Blob: early\nBlob Jr: late")
  }

  /// A recorder closed before its effect ran (a meeting ended at once, and another started) still
  /// runs that effect, cancelled: it leaves the meeting opened since, and its lines, alone.
  @Test func aCancelledMeetingStartingLateLeavesTheMeetingOpenedSince() async {
    let transcript = TypedTranscript()
    transcript.openMeeting()
    transcript.submit("Blob: for the second meeting")
    await Task {
      withUnsafeCurrentTask { $0?.cancel() }
      _ = await transcript.client.startTranscription()
    }.value
    #expect(transcript.currentTranscript == "Blob: for the second meeting")
    #expect(transcript.isListening == false, "open, waiting for its own screen's effect")
  }

  @Test func openingAMeetingEndsTheOneListening() async throws {
    let transcript = TypedTranscript()
    let first = await transcript.client.startTranscription()
    transcript.submit("first meeting")
    transcript.openMeeting()
    #expect(transcript.currentTranscript == "")
    var firstResults: [String] = []
    for try await result in first { firstResults.append(result.transcript) }
    #expect(firstResults == ["first meeting"])
  }

  @Test func aResultNotYetReadGivesWayToTheNewestWhichHoldsItAll() async throws {
    let transcript = TypedTranscript()
    let stream = await transcript.client.startTranscription()
    transcript.setLineInProgress("B")
    transcript.setLineInProgress("Bl")
    transcript.submit("Blob: one")
    transcript.setLineInProgress("Blob Jr")
    var results = stream.makeAsyncIterator()
    #expect(try await results.next()?.transcript == "Blob: one\nBlob Jr")
    transcript.setLineInProgress("Blob Jr:")
    #expect(try await results.next()?.transcript == "Blob: one\nBlob Jr:")
  }

  @Test func aNewMeetingStartsANewTranscriptAndEndsTheOldOne() async throws {
    let transcript = TypedTranscript()
    let first = await transcript.client.startTranscription()
    transcript.submit("first meeting")
    let second = await transcript.client.startTranscription()
    transcript.submit("second meeting")

    var firstResults: [String] = []
    for try await result in first { firstResults.append(result.transcript) }
    #expect(firstResults == ["first meeting"])
    var secondResults = second.makeAsyncIterator()
    #expect(try await secondResults.next()?.transcript == "second meeting")
  }

  @Test func aMeetingThatStopsListeningRefusesLines() async {
    let transcript = TypedTranscript()
    let task = Task {
      for try await _ in await transcript.client.startTranscription() {}
    }
    while !transcript.isListening { await Task.yield() }
    task.cancel()
    _ = await task.result
    #expect(transcript.isListening == false)
    #expect(transcript.submit("nobody hears this") == false)
  }
}
