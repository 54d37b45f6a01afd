//===- SourceText.h - What the source says at a location ---------*- C++ -*-===//
//
// Reports quote the kernel's own source: `b[col * k + p]` reads better than a
// polynomial. Locations of imported kernels point into the .cu file; these
// helpers read it and cut out the expression at a location.
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_ANALYSIS_SOURCETEXT_H
#define KERNELSKILL_ANALYSIS_SOURCETEXT_H

#include "mlir/IR/Location.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Chrono.h"
#include "llvm/Support/FileSystem/UniqueID.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace mlir::ks {

/// The text of source files, each read once and read again when it changes.
///
/// A long-lived process (an agent loop that edits a kernel and profiles it
/// again) must quote the file as it is now, not as it was on the first read:
/// every lookup compares the file's identity, size and modification time with
/// those of the copy held and rereads it when any differs. Thread-safe.
class SourceFileCache {
public:
  /// The current contents of `path`, or null when it cannot be read. The
  /// buffer stays valid for as long as the caller holds it, even if the file
  /// is reread meanwhile.
  std::shared_ptr<const llvm::MemoryBuffer> getFile(llvm::StringRef path);

  /// Forgets every file read so far.
  void clear();

private:
  struct Entry {
    std::shared_ptr<const llvm::MemoryBuffer> buffer;
    llvm::sys::fs::UniqueID id;
    uint64_t size = 0;
    llvm::sys::TimePoint<> modified;
  };
  std::mutex mutex;
  llvm::StringMap<Entry> files;
};

/// The cache the overloads without a cache argument use (one per process).
SourceFileCache &getDefaultSourceFileCache();

/// The file/line/column a location carries, through names and fusions.
std::optional<FileLineColLoc> getFileLoc(Location loc);

/// The identifier at `loc` followed by its balanced `[...]` subscripts
/// (`tile[ty][tx]`), or "" when the file is not readable or the text there is
/// not an identifier. With `requireSubscript`, "" unless a subscript follows.
/// Reads the file through `cache`.
std::string getSourceAccess(Location loc, bool requireSubscript, SourceFileCache &cache);

/// As above, through getDefaultSourceFileCache().
std::string getSourceAccess(Location loc, bool requireSubscript);

/// "file.cu:12" for a location with a file, else "".
std::string shortLocation(Location loc);

} // namespace mlir::ks

#endif // KERNELSKILL_ANALYSIS_SOURCETEXT_H
