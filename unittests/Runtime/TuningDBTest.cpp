//===- TuningDBTest.cpp - The tuning database -----------------------------===//

#include "kernelskill/Runtime/TuningDB.h"

#include "gtest/gtest.h"

#include <csignal>
#include <filesystem>
#include <sstream>
#include <streambuf>
#include <sys/wait.h>
#include <unistd.h>

using namespace mlir::ks::runtime;

namespace {
class TuningDBTest : public ::testing::Test {
protected:
  void SetUp() override {
    dir = std::filesystem::temp_directory_path() /
          ("ks-tuningdb-" + std::to_string(getpid()) + "-" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir);
    path = (dir / "sub" / "tuning.db").string(); // the directory is created on open
  }
  void TearDown() override { std::filesystem::remove_all(dir); }

  static MeasurementRecord record(const std::string &fp, int i, const std::string &workload = "{\"N\":1}") {
    MeasurementRecord r;
    r.fingerprint = fp;
    r.gpuName = "NVIDIA H200";
    r.chip = "sm_90";
    r.driverVersion = "13.0";
    r.cudaVersion = "13.0";
    r.workload = workload;
    r.schedule = "variant-" + std::to_string(i);
    r.results = "{\"median_ms\":" + std::to_string(i) + "}";
    r.ksVersion = "0.1.0";
    return r;
  }
  std::filesystem::path dir;
  std::string path;
};

TEST_F(TuningDBTest, InsertAndQuery) {
  std::string error;
  auto db = TuningDB::open(path, error);
  ASSERT_TRUE(db) << error;
  for (int i = 0; i < 3; ++i) {
    MeasurementRecord r = record("abc", i, i == 2 ? "{\"N\":2}" : "{\"N\":1}");
    ASSERT_TRUE(db->insert(r, error)) << error;
    EXPECT_GT(r.id, 0);
    EXPECT_EQ(r.createdAt.size(), 20u); // 2026-11-29T15:00:00Z
  }
  MeasurementRecord other = record("def", 9);
  ASSERT_TRUE(db->insert(other, error));
  auto all = db->query("abc", "NVIDIA H200", std::nullopt, error);
  ASSERT_TRUE(all);
  EXPECT_EQ(all->size(), 3u);
  auto one = db->query("abc", "NVIDIA H200", std::string("{\"N\":2}"), error);
  ASSERT_TRUE(one);
  ASSERT_EQ(one->size(), 1u);
  EXPECT_EQ((*one)[0].schedule, "variant-2");
  auto none = db->query("abc", "NVIDIA A100", std::nullopt, error);
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->empty());
  EXPECT_EQ(db->integrityCheck(), "ok");
}

TEST_F(TuningDBTest, ExportImportRoundTripIsIdempotent) {
  std::string error;
  std::stringstream lines;
  {
    auto db = TuningDB::open(path, error);
    ASSERT_TRUE(db);
    for (int i = 0; i < 5; ++i) {
      MeasurementRecord r = record("abc", i);
      ASSERT_TRUE(db->insert(r, error));
    }
    ASSERT_TRUE(db->exportJSONL(lines, error));
  }
  std::string copy = (dir / "copy.db").string();
  auto db2 = TuningDB::open(copy, error);
  ASSERT_TRUE(db2);
  std::istringstream first(lines.str()), second(lines.str());
  EXPECT_EQ(db2->importJSONL(first, error), std::optional<size_t>(5));
  EXPECT_EQ(db2->importJSONL(second, error), std::optional<size_t>(0)); // already there
  auto records = db2->all(error);
  ASSERT_TRUE(records);
  ASSERT_EQ(records->size(), 5u);
  EXPECT_EQ((*records)[3].results, "{\"median_ms\":3}");
}

TEST_F(TuningDBTest, ABadImportChangesNothing) {
  std::string error;
  auto db = TuningDB::open(path, error);
  ASSERT_TRUE(db);
  std::istringstream in(toJSON(record("abc", 1)) + "\n{not json}\n");
  EXPECT_FALSE(db->importJSONL(in, error));
  EXPECT_NE(error.find("line 2"), std::string::npos);
  EXPECT_TRUE(db->all(error)->empty());
}

TEST_F(TuningDBTest, ConcurrentWritersLoseNothing) {
  std::string error;
  ASSERT_TRUE(TuningDB::open(path, error)); // create the schema first
  constexpr int kWriters = 4, kEach = 50;
  std::vector<pid_t> children;
  for (int w = 0; w < kWriters; ++w) {
    pid_t pid = fork();
    if (pid == 0) {
      std::string childError;
      auto db = TuningDB::open(path, childError);
      if (!db)
        _exit(2);
      for (int i = 0; i < kEach; ++i) {
        MeasurementRecord r = record("writer" + std::to_string(w), i);
        if (!db->insert(r, childError))
          _exit(3);
      }
      _exit(0);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  auto db = TuningDB::open(path, error);
  ASSERT_TRUE(db);
  EXPECT_EQ(db->all(error)->size(), size_t(kWriters * kEach));
  EXPECT_EQ(db->integrityCheck(), "ok");
}

/// A stream that delivers `lines` and then kills the process when read
/// further: an import killed in the middle of its transaction.
class KillingBuf : public std::streambuf {
public:
  explicit KillingBuf(std::string text) : text(std::move(text)) {
    setg(this->text.data(), this->text.data(), this->text.data() + this->text.size());
  }

protected:
  int_type underflow() override {
    raise(SIGKILL);
    return traits_type::eof();
  }

private:
  std::string text;
};

TEST_F(TuningDBTest, AKilledWriterLosesNoCommittedRecord) {
  std::string error;
  ASSERT_TRUE(TuningDB::open(path, error));
  pid_t pid = fork();
  if (pid == 0) {
    std::string childError;
    auto db = TuningDB::open(path, childError);
    for (int i = 0; i < 20; ++i) {
      MeasurementRecord r = record("committed", i);
      if (!db->insert(r, childError))
        _exit(3);
    }
    std::string pending;
    for (int i = 0; i < 10; ++i)
      pending += toJSON(record("uncommitted", i)) + "\n";
    KillingBuf buf(pending);
    std::istream in(&buf);
    db->importJSONL(in, childError); // killed mid-transaction
    _exit(4);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
  auto db = TuningDB::open(path, error);
  ASSERT_TRUE(db) << error;
  EXPECT_EQ(db->integrityCheck(), "ok");
  auto records = db->all(error);
  ASSERT_TRUE(records);
  EXPECT_EQ(records->size(), 20u);
  for (const MeasurementRecord &r : *records)
    EXPECT_EQ(r.fingerprint, "committed");
}

TEST_F(TuningDBTest, RecordJsonRejectsBadLines) {
  std::string error;
  EXPECT_FALSE(recordFromJSON("[]", error));
  EXPECT_FALSE(recordFromJSON("{\"fingerprint\": \"a\"}", error));
  EXPECT_NE(error.find("missing"), std::string::npos);
  auto r = recordFromJSON(toJSON(record("abc", 7)), error);
  ASSERT_TRUE(r) << error;
  EXPECT_EQ(r->results, "{\"median_ms\":7}");
}

TEST(TuningDBPath, DefaultPathHonoursTheEnvironment) {
  setenv("KS_TUNING_DB", "/tmp/explicit.db", 1);
  EXPECT_EQ(TuningDB::defaultPath(), "/tmp/explicit.db");
  unsetenv("KS_TUNING_DB");
  setenv("XDG_CACHE_HOME", "/tmp/xdg", 1);
  EXPECT_EQ(TuningDB::defaultPath(), "/tmp/xdg/kernelskill/tuning.db");
  unsetenv("XDG_CACHE_HOME");
}
} // namespace
