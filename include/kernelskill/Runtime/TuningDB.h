//===- TuningDB.h - The tuning database of measurements ---------*- C++ -*-===//
//
// Long-term memory: one record per measurement of a kernel variant, keyed by
// the kernel's fingerprint, the GPU and the workload. SQLite in WAL mode, so
// several processes (drivers, ks-bench runs) can write at once; each record is
// committed in its own transaction, so a process killed mid-run loses nothing
// it already wrote, and the file is never left corrupt.
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_RUNTIME_TUNINGDB_H
#define KERNELSKILL_RUNTIME_TUNINGDB_H

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

struct sqlite3;

namespace mlir::ks::runtime {

struct MeasurementRecord {
  int64_t id = 0;
  std::string fingerprint; ///< hash of the kernel's canonical IR (or of its PTX)
  std::string gpuName, chip, driverVersion, cudaVersion;
  std::string workload; ///< canonical JSON of the scalars
  std::string schedule; ///< the transform schedule (text); "" for a baseline
  std::string results;  ///< JSON: times, error, pass/fail, counters
  std::string ksVersion;
  std::string createdAt; ///< UTC, ISO 8601; set by insert() when empty
};

class TuningDB {
public:
  /// Opens (creating if needed, with its directory) the database at `path`.
  static std::unique_ptr<TuningDB> open(const std::string &path, std::string &error);
  /// $KS_TUNING_DB, else $XDG_CACHE_HOME/kernelskill/tuning.db, else
  /// ~/.cache/kernelskill/tuning.db.
  static std::string defaultPath();
  ~TuningDB();

  /// Inserts `record` in its own transaction; sets its id and createdAt.
  /// An identical record (same content and time) is not stored twice.
  bool insert(MeasurementRecord &record, std::string &error);
  /// Records for a fingerprint on a GPU, optionally for one workload, oldest first.
  std::optional<std::vector<MeasurementRecord>> query(const std::string &fingerprint,
                                                      const std::string &gpuName,
                                                      const std::optional<std::string> &workload,
                                                      std::string &error);
  /// Every record, oldest first.
  std::optional<std::vector<MeasurementRecord>> all(std::string &error);
  /// Writes every record as one JSON object per line.
  bool exportJSONL(std::ostream &os, std::string &error);
  /// Reads JSON lines written by exportJSONL (ids are reassigned; records
  /// already present are skipped). Returns how many were added.
  std::optional<size_t> importJSONL(std::istream &is, std::string &error);
  /// SQLite's integrity check: "ok" or what is wrong.
  std::string integrityCheck();

private:
  explicit TuningDB(sqlite3 *db) : db(db) {}
  std::optional<std::vector<MeasurementRecord>> select(const std::string &where,
                                                       const std::vector<std::string> &args,
                                                       std::string &error);
  sqlite3 *db;
};

/// The current UTC time, ISO 8601 ("2026-11-29T15:00:00Z").
std::string currentTimeUTC();

/// The record as one line of JSON, and back.
std::string toJSON(const MeasurementRecord &record);
std::optional<MeasurementRecord> recordFromJSON(const std::string &line, std::string &error);

} // namespace mlir::ks::runtime

#endif // KERNELSKILL_RUNTIME_TUNINGDB_H
