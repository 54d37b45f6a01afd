//===- TuningDB.cpp - The tuning database of measurements -----------------===//

#include "kernelskill/Runtime/TuningDB.h"
#include "kernelskill/Support/BenchResultsSchema.h"

#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include <array>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <istream>
#include <ostream>

using namespace mlir::ks::runtime;
using json = nlohmann::json;
namespace keys = mlir::ks::bench_results;

namespace {
constexpr const char *kSchema = R"sql(
CREATE TABLE IF NOT EXISTS measurements (
  id             INTEGER PRIMARY KEY AUTOINCREMENT,
  fingerprint    TEXT NOT NULL,
  gpu_name       TEXT NOT NULL,
  chip           TEXT NOT NULL,
  driver_version TEXT NOT NULL,
  cuda_version   TEXT NOT NULL,
  workload       TEXT NOT NULL,
  schedule       TEXT NOT NULL,
  results        TEXT NOT NULL,
  ks_version     TEXT NOT NULL,
  created_at     TEXT NOT NULL,
  UNIQUE (fingerprint, gpu_name, workload, schedule, results, created_at)
);
CREATE INDEX IF NOT EXISTS measurements_lookup
  ON measurements (fingerprint, gpu_name, workload);
)sql";

constexpr const char *kColumns = "id, fingerprint, gpu_name, chip, driver_version, cuda_version, "
                                 "workload, schedule, results, ks_version, created_at";

/// A prepared statement that finalizes itself.
struct Statement {
  sqlite3_stmt *stmt = nullptr;
  ~Statement() { sqlite3_finalize(stmt); }
};

bool exec(sqlite3 *db, const char *sql, std::string &error) {
  char *message = nullptr;
  if (sqlite3_exec(db, sql, nullptr, nullptr, &message) == SQLITE_OK)
    return true;
  error = message ? message : sqlite3_errmsg(db);
  sqlite3_free(message);
  return false;
}

std::string column(sqlite3_stmt *stmt, int i) {
  const unsigned char *text = sqlite3_column_text(stmt, i);
  return text ? reinterpret_cast<const char *>(text) : "";
}
} // namespace

std::string mlir::ks::runtime::currentTimeUTC() {
  std::time_t t = std::time(nullptr);
  std::tm tm;
  gmtime_r(&t, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof(buffer), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buffer;
}

std::string TuningDB::defaultPath() {
  if (const char *explicitPath = std::getenv("KS_TUNING_DB"))
    return explicitPath;
  std::filesystem::path base;
  if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    base = xdg;
  else if (const char *home = std::getenv("HOME"); home && *home)
    base = std::filesystem::path(home) / ".cache";
  else
    base = std::filesystem::temp_directory_path();
  return (base / "kernelskill" / "tuning.db").string();
}

std::unique_ptr<TuningDB> TuningDB::open(const std::string &path, std::string &error) {
  std::error_code ec;
  std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (!parent.empty())
    std::filesystem::create_directories(parent, ec);
  if (ec) {
    error = "cannot create " + parent.string() + ": " + ec.message();
    return nullptr;
  }
  sqlite3 *db = nullptr;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) !=
      SQLITE_OK) {
    error = "cannot open tuning database " + path + ": " + (db ? sqlite3_errmsg(db) : "out of memory");
    sqlite3_close(db);
    return nullptr;
  }
  // Concurrent writers wait for each other instead of failing at once.
  sqlite3_busy_timeout(db, 30000);
  std::unique_ptr<TuningDB> result(new TuningDB(db));
  // WAL: readers never block the writer, and a killed writer leaves only
  // committed transactions behind. synchronous=NORMAL is durable against
  // process crashes (not power loss) in WAL mode.
  if (!exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;", error) ||
      !exec(db, kSchema, error)) {
    error = "cannot initialize tuning database " + path + ": " + error;
    return nullptr;
  }
  return result;
}

TuningDB::~TuningDB() { sqlite3_close(db); }

bool TuningDB::insert(MeasurementRecord &r, std::string &error) {
  if (r.createdAt.empty())
    r.createdAt = currentTimeUTC();
  Statement s;
  const char *sql = "INSERT OR IGNORE INTO measurements (fingerprint, gpu_name, chip, "
                    "driver_version, cuda_version, workload, schedule, results, ks_version, "
                    "created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)";
  if (sqlite3_prepare_v2(db, sql, -1, &s.stmt, nullptr) != SQLITE_OK) {
    error = sqlite3_errmsg(db);
    return false;
  }
  const std::string *fields[] = {&r.fingerprint, &r.gpuName,  &r.chip,    &r.driverVersion,
                                 &r.cudaVersion, &r.workload, &r.schedule, &r.results,
                                 &r.ksVersion,   &r.createdAt};
  for (int i = 0; i < 10; ++i)
    sqlite3_bind_text(s.stmt, i + 1, fields[i]->c_str(), -1, SQLITE_TRANSIENT);
  // A single statement is its own transaction (autocommit).
  if (sqlite3_step(s.stmt) != SQLITE_DONE) {
    error = std::string("cannot insert measurement: ") + sqlite3_errmsg(db);
    return false;
  }
  r.id = sqlite3_changes(db) ? sqlite3_last_insert_rowid(db) : 0;
  return true;
}

std::optional<std::vector<MeasurementRecord>>
TuningDB::select(const std::string &where, const std::vector<std::string> &args,
                 std::string &error) {
  Statement s;
  std::string sql = std::string("SELECT ") + kColumns + " FROM measurements " + where +
                    " ORDER BY id";
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &s.stmt, nullptr) != SQLITE_OK) {
    error = sqlite3_errmsg(db);
    return std::nullopt;
  }
  for (size_t i = 0; i < args.size(); ++i)
    sqlite3_bind_text(s.stmt, int(i + 1), args[i].c_str(), -1, SQLITE_TRANSIENT);
  std::vector<MeasurementRecord> records;
  int rc;
  while ((rc = sqlite3_step(s.stmt)) == SQLITE_ROW) {
    MeasurementRecord r;
    r.id = sqlite3_column_int64(s.stmt, 0);
    std::string *fields[] = {&r.fingerprint, &r.gpuName,  &r.chip,    &r.driverVersion,
                             &r.cudaVersion, &r.workload, &r.schedule, &r.results,
                             &r.ksVersion,   &r.createdAt};
    for (int i = 0; i < 10; ++i)
      *fields[i] = column(s.stmt, i + 1);
    records.push_back(std::move(r));
  }
  if (rc != SQLITE_DONE) {
    error = sqlite3_errmsg(db);
    return std::nullopt;
  }
  return records;
}

std::optional<std::vector<MeasurementRecord>>
TuningDB::query(const std::string &fingerprint, const std::string &gpuName,
                const std::optional<std::string> &workload, std::string &error) {
  if (workload)
    return select("WHERE fingerprint = ?1 AND gpu_name = ?2 AND workload = ?3",
                  {fingerprint, gpuName, *workload}, error);
  return select("WHERE fingerprint = ?1 AND gpu_name = ?2", {fingerprint, gpuName}, error);
}

std::optional<std::vector<MeasurementRecord>> TuningDB::all(std::string &error) {
  return select("", {}, error);
}

bool TuningDB::exportJSONL(std::ostream &os, std::string &error) {
  auto records = all(error);
  if (!records)
    return false;
  for (const MeasurementRecord &r : *records)
    os << toJSON(r) << "\n";
  return bool(os);
}

std::optional<size_t> TuningDB::importJSONL(std::istream &is, std::string &error) {
  if (!exec(db, "BEGIN IMMEDIATE", error))
    return std::nullopt;
  size_t added = 0, lineNo = 0;
  std::string line;
  while (std::getline(is, line)) {
    ++lineNo;
    if (line.find_first_not_of(" \t\r") == std::string::npos)
      continue;
    std::optional<MeasurementRecord> r = recordFromJSON(line, error);
    if (!r || !insert(*r, error)) {
      error = "line " + std::to_string(lineNo) + ": " + error;
      std::string ignored;
      exec(db, "ROLLBACK", ignored);
      return std::nullopt;
    }
    added += r->id != 0;
  }
  if (!exec(db, "COMMIT", error))
    return std::nullopt;
  return added;
}

std::string TuningDB::integrityCheck() {
  Statement s;
  if (sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &s.stmt, nullptr) != SQLITE_OK)
    return sqlite3_errmsg(db);
  std::string result;
  while (sqlite3_step(s.stmt) == SQLITE_ROW)
    result += (result.empty() ? "" : "; ") + column(s.stmt, 0);
  return result;
}

namespace {
/// The record's string columns and their keys in `ks-bench db export`.
template <typename Record> auto stringFields(Record &r) {
  return std::array<std::pair<const char *, decltype(&r.fingerprint)>, 9>{{
      {keys::kRecordFingerprint, &r.fingerprint},
      {keys::kRecordGpuName, &r.gpuName},
      {keys::kRecordChip, &r.chip},
      {keys::kRecordDriverVersion, &r.driverVersion},
      {keys::kRecordCudaVersion, &r.cudaVersion},
      {keys::kRecordWorkload, &r.workload},
      {keys::kRecordSchedule, &r.schedule},
      {keys::kRecordKsVersion, &r.ksVersion},
      {keys::kRecordCreatedAt, &r.createdAt}}};
}
} // namespace

std::string mlir::ks::runtime::toJSON(const MeasurementRecord &r) {
  json j = json::object();
  for (auto [key, field] : stringFields(r))
    j[key] = *field;
  // Results are JSON themselves: embed them as an object when they parse.
  json results = json::parse(r.results, nullptr, /*allow_exceptions=*/false);
  j[keys::kRecordResults] = results.is_discarded() ? json(r.results) : results;
  return j.dump();
}

std::optional<MeasurementRecord> mlir::ks::runtime::recordFromJSON(const std::string &line,
                                                                   std::string &error) {
  json j = json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) {
    error = "not a JSON object";
    return std::nullopt;
  }
  MeasurementRecord r;
  for (auto [key, field] : stringFields(r)) {
    if (!j.contains(key) || !j[key].is_string()) {
      error = std::string("missing or non-string field '") + key + "'";
      return std::nullopt;
    }
    *field = j[key];
  }
  if (!j.contains(keys::kRecordResults)) {
    error = std::string("missing field '") + keys::kRecordResults + "'";
    return std::nullopt;
  }
  const json &results = j[keys::kRecordResults];
  r.results = results.is_string() ? results.get<std::string>() : results.dump();
  if (r.fingerprint.empty() || r.gpuName.empty()) {
    error = "empty fingerprint or gpu_name";
    return std::nullopt;
  }
  return r;
}
