public import Dependencies
import Foundation

extension SoundClient: DependencyKey {
  /// Rings the terminal bell.
  public static let liveValue = Self(
    playSpeakerChange: {
      FileHandle.standardOutput.write(Data("\u{07}".utf8))
    }
  )
}
