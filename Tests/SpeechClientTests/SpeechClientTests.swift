import Dependencies
import SpeechClient
import Testing

struct SpeechClientTests {
  @Test func theLiveClientSaysSpeechIsRestrictedOnLinux() async throws {
    let client = SpeechClient.liveValue
    #expect(client.authorizationStatus() == .restricted)
    #expect(await client.requestAuthorization() == .restricted)
    await #expect(throws: SpeechUnavailable.self) {
      for try await _ in await client.startTranscription() {}
    }
  }

  @Test func theTestClientFailsWhenNotOverridden() {
    withKnownIssue {
      _ = SpeechClient.testValue.authorizationStatus()
    } matching: { issue in
      issue.description.contains("SpeechClient.authorizationStatus")
    }
  }
}
