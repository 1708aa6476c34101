#include "runtime/game_log.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <limits>

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/util/delimited_message_util.h>
#include <openssl/evp.h>

namespace robocaf::runtime {
namespace {

namespace pb = google::protobuf;

// Bounds memory between flushes when a caller flushes rarely.
constexpr size_t kAutoFlushBytes = 4u << 20;
// A length prefix above this is a damaged file, not a record: even a full
// detection frame of both teams is a few KiB.
constexpr uint32_t kMaxRecordBytes = 64u << 20;
constexpr size_t kPreambleBytes = sizeof kGameLogMagic + sizeof(uint32_t);

std::string errno_text() { return std::strerror(errno); }

void append_delimited(const pb::MessageLite& message, std::string& buffer, const std::string& path) {
  pb::io::StringOutputStream out(&buffer);
  if (!pb::util::SerializeDelimitedToZeroCopyStream(message, &out))
    throw std::runtime_error(path + ": cannot serialize " + message.GetTypeName() + " for the game log");
}

}  // namespace

// ---------------------------------------------------------------- writer ----

GameLogWriter::GameLogWriter(const std::string& path, const msg::LogHeader& header) : path_(path) {
  fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) throw std::runtime_error(path + ": cannot create game log: " + errno_text());
  {
    pb::io::StringOutputStream out(&buffer_);
    pb::io::CodedOutputStream coded(&out);
    coded.WriteRaw(kGameLogMagic, sizeof kGameLogMagic);
    coded.WriteLittleEndian32(kGameLogFormatVersion);
  }
  msg::LogHeader stamped = header;
  stamped.set_format_version(kGameLogFormatVersion);
  append_delimited(stamped, buffer_, path_);
  try {
    flush();
  } catch (...) {
    ::close(fd_);
    throw;
  }
}

GameLogWriter::~GameLogWriter() {
  if (fd_ < 0) return;
  try {
    flush();
  } catch (...) {
    // A destructor must not throw; close() is there for callers who care.
  }
  ::close(fd_);
}

void GameLogWriter::append(const msg::LogRecord& record) {
  if (fd_ < 0) throw std::runtime_error(path_ + ": append to a closed game log");
  append_delimited(record, buffer_, path_);
  ++records_;
  if (buffer_.size() >= kAutoFlushBytes) flush();
}

void GameLogWriter::flush() {
  if (fd_ < 0 || buffer_.empty()) return;
  write_all(buffer_.data(), buffer_.size());
  buffer_.clear();
}

void GameLogWriter::close() {
  if (fd_ < 0) return;
  flush();
  int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) throw std::runtime_error(path_ + ": cannot close game log: " + errno_text());
}

void GameLogWriter::write_all(const char* data, size_t size) {
  size_t done = 0;
  while (done < size) {
    ssize_t n = ::write(fd_, data + done, size - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      std::string why = errno_text();
      // Keep only what the kernel did not take, so a retry does not duplicate bytes.
      buffer_.erase(0, done);
      bytes_written_ += done;
      throw std::runtime_error(path_ + ": cannot write game log: " + why);
    }
    done += static_cast<size_t>(n);
  }
  bytes_written_ += done;
}

// ---------------------------------------------------------------- reader ----

struct GameLogReader::Stream {
  explicit Stream(int fd) : file(fd) { file.SetCloseOnDelete(true); }
  pb::io::FileInputStream file;
};

GameLogReader::GameLogReader(const std::string& path) : path_(path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw GameLogError(path + ": cannot open game log: " + errno_text());
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    std::string why = errno_text();
    ::close(fd);
    throw GameLogError(path + ": cannot stat game log: " + why);
  }
  // Taken once: a log still being written is read as it was when opened.
  file_size_ = static_cast<uint64_t>(st.st_size);
  stream_ = std::make_unique<Stream>(fd);

  if (file_size_ < kPreambleBytes)
    throw GameLogError(path + ": not a robocaf game log (only " + std::to_string(file_size_) +
                       " bytes, shorter than the 12-byte preamble)");
  char magic[sizeof kGameLogMagic];
  uint32_t version = 0;
  {
    pb::io::CodedInputStream coded(&stream_->file);
    if (!coded.ReadRaw(magic, sizeof magic) || !coded.ReadLittleEndian32(&version))
      throw GameLogError(path + ": cannot read game log preamble");
  }
  if (std::memcmp(magic, kGameLogMagic, sizeof magic) != 0)
    throw GameLogError(path + ": not a robocaf game log (bad magic bytes; expected \"RCAFLOG\\n\")");
  if (version != kGameLogFormatVersion)
    throw GameLogError(path + ": game log format version " + std::to_string(version) +
                       " is not supported (this build reads version " + std::to_string(kGameLogFormatVersion) +
                       ")");
  offset_ = kPreambleBytes;

  uint64_t header_start = offset_;
  pb::io::CodedInputStream coded(&stream_->file);
  uint32_t length = 0;
  if (!coded.ReadVarint32(&length) || length > file_size_ - offset_ - coded.CurrentPosition())
    throw GameLogError(path + ": game log header is truncated");
  offset_ += static_cast<uint64_t>(coded.CurrentPosition()) + length;
  auto limit = coded.PushLimit(static_cast<int>(length));
  if (!header_.ParseFromCodedStream(&coded) || !coded.ConsumedEntireMessage())
    throw GameLogError(path + ": game log header at byte " + std::to_string(header_start) + " is corrupt");
  coded.PopLimit(limit);
}

GameLogReader::~GameLogReader() = default;

bool GameLogReader::next(msg::LogRecord& record) {
  while (!done_) {
    if (offset_ >= file_size_) {
      done_ = true;
      break;
    }
    uint64_t remaining = file_size_ - offset_;
    pb::io::CodedInputStream coded(&stream_->file);
    uint32_t length = 0;
    if (!coded.ReadVarint32(&length)) {
      // A varint is at most 10 bytes; fewer left means the writer stopped inside it.
      if (remaining < 10) {
        truncated_ = done_ = true;
        break;
      }
      throw GameLogError(path_ + ": record " + std::to_string(index_) + " at byte " + std::to_string(offset_) +
                         " has a malformed length prefix");
    }
    uint64_t prefix = static_cast<uint64_t>(coded.CurrentPosition());
    if (length > kMaxRecordBytes)
      throw GameLogError(path_ + ": record " + std::to_string(index_) + " at byte " + std::to_string(offset_) +
                         " claims " + std::to_string(length) + " bytes; the file is corrupt");
    if (prefix + length > remaining) {
      truncated_ = done_ = true;
      break;
    }
    auto limit = coded.PushLimit(static_cast<int>(length));
    bool ok = record.ParseFromCodedStream(&coded) && coded.ConsumedEntireMessage();
    coded.PopLimit(limit);
    if (!ok)
      throw GameLogError(path_ + ": record " + std::to_string(index_) + " at byte " + std::to_string(offset_) +
                         " is corrupt (" + std::to_string(length) + " bytes do not parse as LogRecord)");
    offset_ += prefix + length;
    ++index_;
    if (record.payload_case() == msg::LogRecord::PAYLOAD_NOT_SET) {
      ++skipped_;
      continue;
    }
    return true;
  }
  record.Clear();
  return false;
}

// ---------------------------------------------------------------- sha256 ----

std::string sha256_file(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw std::runtime_error(path + ": cannot open for hashing: " + errno_text());
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
  bool ok = ctx && EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) == 1;
  char buffer[1 << 16];
  while (ok) {
    ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      std::string why = errno_text();
      ::close(fd);
      throw std::runtime_error(path + ": cannot read for hashing: " + why);
    }
    ok = EVP_DigestUpdate(ctx.get(), buffer, static_cast<size_t>(n)) == 1;
  }
  ::close(fd);
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  if (!ok || EVP_DigestFinal_ex(ctx.get(), digest, &size) != 1)
    throw std::runtime_error(path + ": SHA-256 failed in OpenSSL");
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(2 * size);
  for (unsigned int i = 0; i < size; ++i) {
    hex.push_back(kHex[digest[i] >> 4]);
    hex.push_back(kHex[digest[i] & 0xf]);
  }
  return hex;
}

}  // namespace robocaf::runtime
