import TerminalUI
import Testing

struct RGBTests {
  @Test(arguments: [
    (RGB(red: 0, green: 0, blue: 0), 16),
    (RGB(red: 255, green: 0, blue: 0), 196),
    (RGB(red: 255, green: 255, blue: 255), 231),
    (RGB(red: 95, green: 135, blue: 175), 67),  // exactly a cube colour
    (RGB(red: 100, green: 130, blue: 180), 67),  // near it
    (RGB(red: 128, green: 128, blue: 128), 244),  // exactly a grey
    (RGB(red: 18, green: 18, blue: 18), 233),
    (RGB(red: 240, green: 240, blue: 240), 255),
  ])
  func theNearestPaletteColor(color: RGB, index: Int) {
    #expect(color.palette256Index == index)
  }
}
