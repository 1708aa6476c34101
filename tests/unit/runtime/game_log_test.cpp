#include "runtime/game_log.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "runtime/config_loader.hpp"

namespace robocaf::runtime {
namespace {

namespace fs = std::filesystem;

msg::LogHeader make_header() {
  msg::LogHeader h;
  *h.mutable_config() = default_match_config();
  h.set_seed(42);
  h.set_producer("game_log_test");
  return h;
}

msg::LogRecord truth_record(int i) {
  msg::LogRecord r;
  r.set_t(0.02 * i);
  auto* truth = r.mutable_truth();
  truth->set_cycle(static_cast<uint64_t>(i));
  truth->set_t(0.02 * i);
  truth->mutable_ball_position()->set_x(0.01 * i);
  truth->mutable_ball_position()->set_y(-0.5);
  for (uint32_t id = 1; id <= 5; ++id) {
    auto* robot = truth->add_robots();
    robot->set_team(id % 2 ? msg::BLUE : msg::YELLOW);
    robot->set_robot_id(id);
    robot->mutable_pose()->set_x(0.1 * id + i);
  }
  return r;
}

msg::LogRecord referee_record(int i) {
  msg::LogRecord r;
  r.set_t(0.02 * i);
  auto* e = r.mutable_referee();
  e->set_t(0.02 * i);
  e->set_kind(msg::REF_EVENT_GOAL);
  e->set_team(msg::BLUE);
  e->set_reason("ball crossed the goal line");
  return r;
}

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

std::vector<msg::LogRecord> read_all(GameLogReader& reader) {
  std::vector<msg::LogRecord> out;
  msg::LogRecord r;
  while (reader.next(r)) out.push_back(r);
  return out;
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "<no exception>";
}

class GameLogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("robocaf_game_log_test_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  fs::path dir_;
};

TEST_F(GameLogTest, RoundTrip) {
  auto file = path("round.rcaflog");
  std::vector<msg::LogRecord> written;
  {
    GameLogWriter writer(file, make_header());
    for (int i = 0; i < 100; ++i) {
      written.push_back(i % 10 == 9 ? referee_record(i) : truth_record(i));
      writer.append(written.back());
      if (i % 7 == 0) writer.flush();
    }
    EXPECT_EQ(writer.records(), 100u);
  }
  auto bytes = read_bytes(file);
  ASSERT_GE(bytes.size(), 12u);
  EXPECT_EQ(bytes.substr(0, 8), std::string("RCAFLOG\n"));
  EXPECT_EQ(bytes.substr(8, 4), std::string("\x01\x00\x00\x00", 4));  // little-endian version 1

  GameLogReader reader(file);
  EXPECT_EQ(reader.header().format_version(), kGameLogFormatVersion);
  EXPECT_EQ(reader.header().seed(), 42u);
  EXPECT_EQ(reader.header().producer(), "game_log_test");
  EXPECT_EQ(reader.header().config().SerializeAsString(), default_match_config().SerializeAsString());
  auto got = read_all(reader);
  ASSERT_EQ(got.size(), written.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i].SerializeAsString(), written[i].SerializeAsString()) << i;
  EXPECT_FALSE(reader.truncated());
  EXPECT_EQ(reader.records_read(), 100u);
}

TEST_F(GameLogTest, FlushPutsRecordsOnDiskAndAppendAloneDoesNot) {
  auto file = path("flush.rcaflog");
  GameLogWriter writer(file, make_header());
  auto header_only = fs::file_size(file);
  EXPECT_GT(header_only, 12u);
  writer.append(truth_record(1));
  EXPECT_EQ(fs::file_size(file), header_only);  // buffered in memory
  writer.flush();
  EXPECT_GT(fs::file_size(file), header_only);
  EXPECT_EQ(fs::file_size(file), writer.bytes_written());

  GameLogReader reader(file);  // while the writer is still open
  auto got = read_all(reader);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].truth().cycle(), 1u);
}

TEST_F(GameLogTest, SigkillLosesOnlyUnflushedRecords) {
  auto file = path("killed.rcaflog");
  pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    try {
      GameLogWriter writer(file, make_header());
      for (int i = 0; i < 50; ++i) writer.append(truth_record(i));
      writer.flush();
      for (int i = 50; i < 60; ++i) writer.append(truth_record(i));  // never flushed
      ::kill(::getpid(), SIGKILL);
    } catch (...) {
    }
    ::_exit(2);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFSIGNALED(status));
  ASSERT_EQ(WTERMSIG(status), SIGKILL);

  GameLogReader reader(file);
  auto got = read_all(reader);
  ASSERT_EQ(got.size(), 50u);
  for (int i = 0; i < 50; ++i) EXPECT_EQ(got[static_cast<size_t>(i)].truth().cycle(), static_cast<uint64_t>(i));
  EXPECT_FALSE(reader.truncated());
}

TEST_F(GameLogTest, CutAtEveryByteOfTheLastRecordKeepsEarlierRecords) {
  auto file = path("full.rcaflog");
  uint64_t last_start = 0;
  {
    GameLogWriter writer(file, make_header());
    writer.append(truth_record(1));
    writer.append(referee_record(2));
    writer.flush();
    last_start = writer.bytes_written();
    writer.append(truth_record(3));
  }
  auto bytes = read_bytes(file);
  ASSERT_GT(bytes.size(), last_start + 20);  // the last record spans many bytes

  auto cut = path("cut.rcaflog");
  for (size_t end = last_start; end < bytes.size(); ++end) {
    write_bytes(cut, bytes.substr(0, end));
    GameLogReader reader(cut);
    auto got = read_all(reader);
    ASSERT_EQ(got.size(), 2u) << "cut at " << end;
    EXPECT_EQ(got[0].truth().cycle(), 1u);
    EXPECT_EQ(got[1].referee().kind(), msg::REF_EVENT_GOAL);
    // Cut exactly between records: a clean, shorter log.
    EXPECT_EQ(reader.truncated(), end != last_start) << "cut at " << end;
  }
}

TEST_F(GameLogTest, BadMagicIsAClearError) {
  auto file = path("bad_magic.rcaflog");
  write_bytes(file, std::string("NOTALOG\n\x01\x00\x00\x00\x00", 13));
  auto what = error_of([&] { GameLogReader reader(file); });
  EXPECT_NE(what.find(file), std::string::npos) << what;
  EXPECT_NE(what.find("not a robocaf game log"), std::string::npos) << what;
  EXPECT_NE(what.find("magic"), std::string::npos) << what;
  EXPECT_THROW(GameLogReader{file}, GameLogError);

  write_bytes(file, "RCAF");
  what = error_of([&] { GameLogReader reader(file); });
  EXPECT_NE(what.find("not a robocaf game log"), std::string::npos) << what;
}

TEST_F(GameLogTest, OtherVersionIsRejected) {
  auto file = path("v2.rcaflog");
  { GameLogWriter writer(file, make_header()); }
  auto bytes = read_bytes(file);
  bytes[8] = 2;
  write_bytes(file, bytes);
  auto what = error_of([&] { GameLogReader reader(file); });
  EXPECT_NE(what.find("version 2"), std::string::npos) << what;
}

TEST_F(GameLogTest, CorruptCompleteRecordNamesItsIndex) {
  auto file = path("corrupt.rcaflog");
  uint64_t second_start = 0;
  {
    GameLogWriter writer(file, make_header());
    writer.append(truth_record(1));
    writer.flush();
    second_start = writer.bytes_written();
    writer.append(truth_record(2));
    writer.append(truth_record(3));
  }
  auto bytes = read_bytes(file);
  // Keep the one-byte length prefix, garble the payload: 0xff bytes are an
  // endless varint, which no message parses.
  auto length = static_cast<unsigned char>(bytes[second_start]);
  ASSERT_LT(length, 128u);
  for (size_t i = 0; i < length; ++i) bytes[second_start + 1 + i] = '\xff';
  write_bytes(file, bytes);

  GameLogReader reader(file);
  msg::LogRecord r;
  ASSERT_TRUE(reader.next(r));
  auto what = error_of([&] { reader.next(r); });
  EXPECT_NE(what.find("record 1 "), std::string::npos) << what;
  EXPECT_NE(what.find("corrupt"), std::string::npos) << what;
}

TEST_F(GameLogTest, RecordsWithUnknownPayloadAreSkipped) {
  auto file = path("future.rcaflog");
  {
    GameLogWriter writer(file, make_header());
    writer.append(truth_record(1));
    // A newer writer's payload: t = 0.5 (field 1) plus an unknown field 99.
    msg::LogRecord future;
    std::string wire;
    wire += '\x09';  // field 1, 64-bit
    double t = 0.5;
    wire.append(reinterpret_cast<const char*>(&t), 8);
    wire += "\x98\x06\x07";  // field 99, varint 7
    ASSERT_TRUE(future.ParseFromString(wire));
    writer.append(future);
    writer.append(truth_record(2));
  }
  GameLogReader reader(file);
  auto got = read_all(reader);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[1].truth().cycle(), 2u);
  EXPECT_EQ(reader.records_skipped(), 1u);
}

TEST_F(GameLogTest, WriterErrorsNameThePath) {
  auto file = path("missing_dir/x.rcaflog");
  auto what = error_of([&] { GameLogWriter writer(file, make_header()); });
  EXPECT_NE(what.find(file), std::string::npos) << what;
}

TEST_F(GameLogTest, Sha256OfFile) {
  auto file = path("abc.txt");
  write_bytes(file, "abc");
  EXPECT_EQ(sha256_file(file), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  write_bytes(file, "");
  EXPECT_EQ(sha256_file(file), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_THROW(sha256_file(path("nope")), std::runtime_error);
}

}  // namespace
}  // namespace robocaf::runtime
