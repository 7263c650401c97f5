import Dependencies
import SoundClient
import Testing

struct SoundClientTests {
  @Test func theTestClientFailsWhenNotOverridden() async {
    await withKnownIssue {
      await SoundClient.testValue.playSpeakerChange()
    } matching: { issue in
      issue.description.contains("SoundClient.playSpeakerChange")
    }
  }

  @Test func thePreviewClientIsSilent() async {
    await SoundClient.previewValue.playSpeakerChange()
  }
}
