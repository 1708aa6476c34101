#pragma once
// Game log files. Layout: 8 magic bytes "RCAFLOG\n", a little-endian uint32
// format version, then varint-length-prefixed protobuf messages: one
// msg::LogHeader, then msg::LogRecord's. The file is append-only, so a crash or
// SIGKILL can at worst cut the last record short, which the reader tolerates.

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "messages/log.pb.h"

namespace robocaf::runtime {

inline constexpr char kGameLogMagic[8] = {'R', 'C', 'A', 'F', 'L', 'O', 'G', '\n'};
inline constexpr uint32_t kGameLogFormatVersion = 1;

/// A log that is not a robocaf game log, has another version, or is corrupt
/// before its end. what() names the file and, for records, the record index.
class GameLogError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Writes a game log. Records are buffered in memory and written with POSIX
/// write() on flush(), so a killed process loses at most the records appended
/// since the last flush and never damages the ones before. Not thread-safe:
/// owned by the one actor (the world) that records the match.
class GameLogWriter {
 public:
  /// Creates or truncates `path` and writes magic, version and `header`
  /// (format_version set to kGameLogFormatVersion) right away.
  /// Throws std::runtime_error naming the path.
  GameLogWriter(const std::string& path, const msg::LogHeader& header);
  GameLogWriter(const GameLogWriter&) = delete;
  GameLogWriter& operator=(const GameLogWriter&) = delete;
  /// Flushes and closes; errors here are lost, call close() to see them.
  ~GameLogWriter();

  /// Buffers one record; writes through when the buffer grows past a few MiB.
  void append(const msg::LogRecord& record);
  /// Hands everything buffered to the kernel. Throws std::runtime_error.
  void flush();
  /// Flushes and closes the file. Further appends throw.
  void close();

  const std::string& path() const { return path_; }
  uint64_t records() const { return records_; }
  /// Bytes handed to the kernel so far.
  uint64_t bytes_written() const { return bytes_written_; }

 private:
  void write_all(const char* data, size_t size);

  std::string path_;
  int fd_ = -1;
  std::string buffer_;
  uint64_t records_ = 0;
  uint64_t bytes_written_ = 0;
};

/// Reads a game log written by GameLogWriter, streaming (constant memory).
class GameLogReader {
 public:
  /// Opens `path` and reads magic, version and header. Throws GameLogError.
  explicit GameLogReader(const std::string& path);
  GameLogReader(const GameLogReader&) = delete;
  GameLogReader& operator=(const GameLogReader&) = delete;
  ~GameLogReader();

  const msg::LogHeader& header() const { return header_; }

  /// Reads the next record into `record`; false at the end of the log. A cut
  /// last record ends the log (see truncated()). Records whose payload this
  /// build does not know (newer writer) are skipped. Throws GameLogError on a
  /// complete record that does not parse, naming its index.
  bool next(msg::LogRecord& record);

  /// True once next() met a last record cut short (e.g. the writer was killed).
  bool truncated() const { return truncated_; }
  /// Records returned by next() so far.
  uint64_t records_read() const { return index_ - skipped_; }
  /// Records skipped because their payload is unknown to this build (the
  /// file comment in messages/log.proto asks readers to skip them).
  uint64_t records_skipped() const { return skipped_; }

 private:
  struct Stream;
  std::string path_;
  std::unique_ptr<Stream> stream_;
  msg::LogHeader header_;
  uint64_t file_size_ = 0;
  uint64_t offset_ = 0;  // file offset of the next unread record
  uint64_t index_ = 0;   // index of the next record, counting skipped ones
  uint64_t skipped_ = 0;
  bool truncated_ = false;
  bool done_ = false;
};

/// Lower-case hex SHA-256 of a file's bytes. Throws std::runtime_error.
std::string sha256_file(const std::string& path);

}  // namespace robocaf::runtime
