import ConcurrencyExtras
import Foundation
import StorageClient

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The real file system with one step of a save made to fail, the way a disk can, once armed.
struct FaultyFileSystem: Sendable {
  /// A step of a save, failed.
  enum Fault: String, CaseIterable, Sendable {
    case createTemporaryFile
    case shortWriteThenDiskFull
    case diskFullOnWrite
    case writeWritesNothing
    case flushToDisk
    case closeTemporaryFile
    case renameIntoPlace
    case createDirectory
  }

  let fault: Fault
  private let isArmed = LockIsolated(false)
  private let writes = LockIsolated(0)

  init(_ fault: Fault) {
    self.fault = fault
  }

  /// Makes the fault happen from now on.
  func arm() {
    isArmed.setValue(true)
  }

  /// Makes the disk behave again.
  func disarm() {
    isArmed.setValue(false)
  }

  var fileSystem: FileSystem {
    var fileSystem = FileSystem.live
    let live = FileSystem.live
    let (isArmed, writes, fault) = (isArmed, writes, fault)
    switch fault {
    case .createTemporaryFile:
      fileSystem.createFile = { path in
        isArmed.value
          ? .failure(SystemError(code: EMFILE, operation: "open")) : live.createFile(path)
      }
    case .shortWriteThenDiskFull:
      fileSystem.write = { descriptor, bytes in
        guard isArmed.value else { return live.write(descriptor, bytes) }
        let call = writes.withValue { count in
          count += 1
          return count
        }
        guard call == 1 else { return .failure(SystemError(code: ENOSPC, operation: "write")) }
        return live.write(descriptor, UnsafeRawBufferPointer(rebasing: bytes[..<(bytes.count / 2)]))
      }
    case .diskFullOnWrite:
      fileSystem.write = { descriptor, bytes in
        isArmed.value
          ? .failure(SystemError(code: ENOSPC, operation: "write")) : live.write(descriptor, bytes)
      }
    case .writeWritesNothing:
      fileSystem.write = { descriptor, bytes in
        isArmed.value ? .success(0) : live.write(descriptor, bytes)
      }
    case .flushToDisk:
      fileSystem.sync = { descriptor in
        isArmed.value ? SystemError(code: EIO, operation: "fsync") : live.sync(descriptor)
      }
    case .closeTemporaryFile:
      fileSystem.close = { descriptor in
        guard isArmed.value else { return live.close(descriptor) }
        _ = live.close(descriptor)
        return SystemError(code: EIO, operation: "close")
      }
    case .renameIntoPlace:
      fileSystem.rename = { source, destination in
        isArmed.value
          ? SystemError(code: EXDEV, operation: "rename") : live.rename(source, destination)
      }
    case .createDirectory:
      fileSystem.createDirectories = { path in
        isArmed.value ? SystemError(code: EROFS, operation: "mkdir") : live.createDirectories(path)
      }
    }
    return fileSystem
  }
}
