package import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The file-system calls the storage makes itself, beside SQLite's: looking at what is at the
/// database's path, moving unreadable data aside, and writing new files (recovery files,
/// exports). ``live`` makes the real calls.
package struct FileSystem: Sendable {
  /// What is at a path, without following a final symbolic link.
  package var entry: @Sendable (_ path: String) -> Result<Entry, SystemError>
  /// Where a symbolic link points, made absolute.
  package var linkTarget: @Sendable (_ path: String) -> Result<String, SystemError>
  /// The whole contents of a file.
  package var read: @Sendable (_ path: String) -> Result<Data, SystemError>
  /// Creates a directory and any missing parents, readable only by the user.
  package var createDirectories: @Sendable (_ path: String) -> SystemError?
  /// Creates a new file readable only by the user, failing if one exists; returns its
  /// descriptor.
  package var createFile: @Sendable (_ path: String) -> Result<Int32, SystemError>
  /// Writes some of `bytes` (perhaps fewer than all) and returns how many.
  package var write:
    @Sendable (_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Result<Int, SystemError>
  /// Flushes a file to the disk.
  package var sync: @Sendable (_ descriptor: Int32) -> SystemError?
  /// Closes a file.
  package var close: @Sendable (_ descriptor: Int32) -> SystemError?
  /// Makes `destination` a second name of `source` (never replacing anything).
  package var link: @Sendable (_ source: String, _ destination: String) -> SystemError?
  /// Removes a name.
  package var remove: @Sendable (_ path: String) -> SystemError?
  /// Gives `source` the name `destination`, replacing what had it (`rename(2)`).
  package var rename: @Sendable (_ source: String, _ destination: String) -> SystemError?

  /// What a path names.
  package enum Entry: Equatable, Sendable {
    case missing
    case file
    case directory
    case symbolicLink
    case device
    case namedPipe
    case socket
  }

  package init(
    entry: @escaping @Sendable (String) -> Result<Entry, SystemError>,
    linkTarget: @escaping @Sendable (String) -> Result<String, SystemError>,
    read: @escaping @Sendable (String) -> Result<Data, SystemError>,
    createDirectories: @escaping @Sendable (String) -> SystemError?,
    createFile: @escaping @Sendable (String) -> Result<Int32, SystemError>,
    write: @escaping @Sendable (Int32, UnsafeRawBufferPointer) -> Result<Int, SystemError>,
    sync: @escaping @Sendable (Int32) -> SystemError?,
    close: @escaping @Sendable (Int32) -> SystemError?,
    link: @escaping @Sendable (String, String) -> SystemError?,
    remove: @escaping @Sendable (String) -> SystemError?,
    rename: @escaping @Sendable (String, String) -> SystemError?,
  ) {
    self.entry = entry
    self.linkTarget = linkTarget
    self.read = read
    self.createDirectories = createDirectories
    self.createFile = createFile
    self.write = write
    self.sync = sync
    self.close = close
    self.link = link
    self.remove = remove
    self.rename = rename
  }
}

/// A failed system call: its error number and what was being done.
package struct SystemError: Error, Equatable, Sendable {
  /// The `errno` value.
  package var code: Int32
  /// The call, such as `write` or `rename`.
  package var operation: String

  package init(code: Int32, operation: String) {
    self.code = code
    self.operation = operation
  }

  /// The failure as a problem with `path`, in words for people and the system's for logs.
  package func problem(at path: String) -> FileProblem {
    FileProblem(
      path: path,
      reason: reason,
      technicalDetail: "\(operation): \(String(cString: strerror(code))) (errno \(code))"
    )
  }

  private var reason: FileProblem.Reason {
    switch code {
    case EACCES, EPERM: .permissionDenied
    case ENOSPC: .diskFull
    case EDQUOT: .quotaExceeded
    case EISDIR: .isDirectory
    case ENOENT: .doesNotExist
    case ENOTDIR: .notADirectory
    case EROFS: .readOnlyDisk
    case EIO: .inputOutputError
    default: .other(String(cString: strerror(code)).lowercased())
    }
  }
}

extension FileSystem {
  /// The real file system.
  package static let live = Self(
    entry: { path in
      var status = stat()
      guard lstat(path, &status) == 0 else {
        return errno == ENOENT ? .success(.missing) : .failure(.last("lstat"))
      }
      switch status.st_mode & S_IFMT {
      case S_IFREG: return .success(.file)
      case S_IFDIR: return .success(.directory)
      case S_IFLNK: return .success(.symbolicLink)
      case S_IFIFO: return .success(.namedPipe)
      case S_IFSOCK: return .success(.socket)
      default: return .success(.device)
      }
    },
    linkTarget: { path in
      var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
      let count = readlink(path, &buffer, buffer.count - 1)
      guard count >= 0 else { return .failure(.last("readlink")) }
      let target = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
      guard !target.hasPrefix("/") else { return .success(target) }
      let directory = (path as NSString).deletingLastPathComponent
      return .success((directory as NSString).appendingPathComponent(target))
    },
    read: { path in
      let descriptor = open(path, O_RDONLY | O_CLOEXEC)
      guard descriptor >= 0 else { return .failure(.last("open")) }
      defer { _ = closeFile(descriptor) }
      var data = Data()
      var chunk = [UInt8](repeating: 0, count: 1 << 16)
      while true {
        let count = readFile(descriptor, &chunk, chunk.count)
        if count < 0 {
          if errno == EINTR { continue }
          return .failure(.last("read"))
        }
        if count == 0 { return .success(data) }
        data.append(contentsOf: chunk[..<count])
      }
    },
    createDirectories: { path in
      var current = ""
      for component in path.split(separator: "/", omittingEmptySubsequences: true) {
        current += "/\(component)"
        if mkdir(current, 0o700) != 0, errno != EEXIST {
          return .last("mkdir")
        }
      }
      return nil
    },
    createFile: { path in
      let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
      return descriptor >= 0 ? .success(descriptor) : .failure(.last("open"))
    },
    write: { descriptor, bytes in
      while true {
        let count = writeFile(descriptor, bytes.baseAddress, bytes.count)
        if count >= 0 { return .success(count) }
        if errno != EINTR { return .failure(.last("write")) }
      }
    },
    sync: { descriptor in
      fsync(descriptor) == 0 ? nil : .last("fsync")
    },
    close: { descriptor in
      closeFile(descriptor) == 0 ? nil : .last("close")
    },
    link: { source, destination in
      // NB: No flags: a symbolic link gets a second name itself, never its target.
      linkat(AT_FDCWD, source, AT_FDCWD, destination, 0) == 0 ? nil : .last("link")
    },
    remove: { path in
      unlink(path) == 0 ? nil : .last("unlink")
    },
    rename: { source, destination in
      renameFile(source, destination) == 0 ? nil : .last("rename")
    }
  )
}

extension SystemError {
  /// The error of the call that just failed.
  fileprivate static func last(_ operation: String) -> Self {
    Self(code: errno, operation: operation)
  }
}

// NB: Inside `FileSystem`, its own `read`, `write` and `close` hide the C library's
// functions; these reach them by a name of their own, where a module name (`Glibc.close`)
// would tie the file to one platform's C library.

/// `close(2)`.
private func closeFile(_ descriptor: Int32) -> Int32 {
  close(descriptor)
}

/// `read(2)`.
private func readFile(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
  read(descriptor, buffer, count)
}

/// `rename(2)`.
private func renameFile(_ source: String, _ destination: String) -> Int32 {
  rename(source, destination)
}

/// `write(2)`.
private func writeFile(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
  write(descriptor, bytes, count)
}

extension FileSystem {
  /// Writes `data` to a new file at `file` (`createFile`: for the user only, never replacing
  /// one), flushed to the disk; on failure removes what it created and returns the call that
  /// failed. The terminal writes its recovery files this way.
  package func writeNewFile(_ file: String, _ data: Data) -> SystemError? {
    let descriptor: Int32
    switch createFile(file) {
    case .success(let created): descriptor = created
    case .failure(let error): return error
    }
    var failed: SystemError?
    data.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count, failed == nil {
        switch write(descriptor, UnsafeRawBufferPointer(rebasing: buffer[offset...])) {
        case .success(0): failed = SystemError(code: EIO, operation: "write")
        case .success(let count): offset += count
        case .failure(let error): failed = error
        }
      }
    }
    if failed == nil {
      failed = sync(descriptor)
    }
    let closeError = close(descriptor)
    guard let error = failed ?? closeError else { return nil }
    _ = remove(file)
    return error
  }
}
