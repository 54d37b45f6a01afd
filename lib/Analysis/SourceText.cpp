//===- SourceText.cpp - What the source says at a location ----------------===//

#include "kernelskill/Analysis/SourceText.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace mlir;

std::shared_ptr<const llvm::MemoryBuffer> mlir::ks::SourceFileCache::getFile(StringRef path) {
  // Status first, then read: a file replaced between the two is seen as
  // changed again at the next lookup, never as unchanged with stale text.
  llvm::sys::fs::file_status status;
  if (llvm::sys::fs::status(path, status) || !llvm::sys::fs::is_regular_file(status))
    return nullptr;
  std::lock_guard<std::mutex> lock(mutex);
  Entry &entry = files[path];
  if (entry.buffer && entry.id == status.getUniqueID() && entry.size == status.getSize() &&
      entry.modified == status.getLastModificationTime())
    return entry.buffer;
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!buffer) {
    files.erase(path);
    return nullptr;
  }
  entry = {std::move(*buffer), status.getUniqueID(), status.getSize(),
           status.getLastModificationTime()};
  return entry.buffer;
}

void mlir::ks::SourceFileCache::clear() {
  std::lock_guard<std::mutex> lock(mutex);
  files.clear();
}

mlir::ks::SourceFileCache &mlir::ks::getDefaultSourceFileCache() {
  static SourceFileCache cache;
  return cache;
}

std::optional<FileLineColLoc> mlir::ks::getFileLoc(Location loc) {
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return file;
  if (auto named = dyn_cast<NameLoc>(loc))
    return getFileLoc(named.getChildLoc());
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location l : fused.getLocations())
      if (auto f = getFileLoc(l))
        return f;
  return std::nullopt;
}

std::string mlir::ks::shortLocation(Location loc) {
  std::optional<FileLineColLoc> file = getFileLoc(loc);
  if (!file)
    return {};
  return (llvm::sys::path::filename(file->getFilename().getValue()) + ":" + Twine(file->getLine()))
      .str();
}

std::string mlir::ks::getSourceAccess(Location loc, bool requireSubscript) {
  return getSourceAccess(loc, requireSubscript, getDefaultSourceFileCache());
}

std::string mlir::ks::getSourceAccess(Location loc, bool requireSubscript,
                                      SourceFileCache &cache) {
  std::optional<FileLineColLoc> file = getFileLoc(loc);
  if (!file)
    return {};
  std::shared_ptr<const llvm::MemoryBuffer> buffer =
      cache.getFile(file->getFilename().getValue());
  if (!buffer)
    return {};
  StringRef text = buffer->getBuffer();
  SmallVector<StringRef> lines;
  text.split(lines, '\n');
  if (file->getLine() == 0 || file->getLine() > lines.size())
    return {};
  StringRef line = lines[file->getLine() - 1];
  if (file->getColumn() == 0 || file->getColumn() > line.size())
    return {};
  StringRef rest = line.drop_front(file->getColumn() - 1);
  size_t i = 0;
  while (i < rest.size() && (isalnum(static_cast<unsigned char>(rest[i])) || rest[i] == '_'))
    ++i;
  if (i == 0 || isdigit(static_cast<unsigned char>(rest[0])))
    return {};
  size_t identifierEnd = i;
  while (i < rest.size() && rest[i] == '[') {
    int depth = 0;
    size_t j = i;
    for (; j < rest.size(); ++j) {
      depth += rest[j] == '[' ? 1 : rest[j] == ']' ? -1 : 0;
      if (depth == 0)
        break;
    }
    if (j >= rest.size())
      return {};
    i = j + 1;
  }
  if (requireSubscript && i == identifierEnd)
    return {};
  return rest.take_front(i).str();
}
