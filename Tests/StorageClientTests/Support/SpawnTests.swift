import Foundation
import StorageTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The tests' ``spawn(_:environment:settingUp:)``: a program started while a test holds a pipe
/// does not keep that pipe open.
struct SpawnTests {
  @Test func aPipeReachesItsEndWhileAProgramStartedMeanwhileRuns() throws {
    // NB: Made with pipe(2), as Foundation's `Pipe` and `openpty` make theirs: without
    // close-on-exec, so every child started while they are open would inherit them.
    var watched: [Int32] = [0, 0]
    var input: [Int32] = [0, 0]
    var open: Set<Int32> = []
    defer { for descriptor in open { close(descriptor) } }
    try #require(pipe(&watched) == 0)
    open.formUnion(watched)
    try #require(pipe(&input) == 0)
    open.formUnion(input)
    func closeNow(_ descriptor: Int32) {
      close(descriptor)
      open.remove(descriptor)
    }

    let pid = try spawn(["/bin/sh", "-c", "read line"]) { actions in
      posix_spawn_file_actions_adddup2(&actions, input[0], 0)
    }
    // NB: The program runs until it is killed: the test keeps its input open meanwhile.
    defer {
      kill(pid, SIGKILL)
      var status: Int32 = 0
      waitpid(pid, &status, 0)
    }
    closeNow(input[0])
    closeNow(watched[1])

    // NB: Waits for the end rather than looks once: a program that another test starts at this
    // moment holds a copy of every descriptor from its fork until its spawn closes them.
    var descriptor = pollfd(fd: watched[0], events: Int16(POLLIN), revents: 0)
    try #require(poll(&descriptor, 1, 10_000) == 1, "the program holds the pipe's writing end")
    var byte: UInt8 = 0
    #expect(read(watched[0], &byte, 1) == 0)
  }
}
