//===- SourceText.cpp - What the source says at a location ----------------===//

#include "kernelskill/Analysis/SourceText.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <mutex>

using namespace mlir;

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
  static std::mutex mutex;
  static llvm::StringMap<std::unique_ptr<llvm::MemoryBuffer>> files;
  std::optional<FileLineColLoc> file = getFileLoc(loc);
  if (!file)
    return {};
  StringRef text;
  {
    std::lock_guard<std::mutex> lock(mutex);
    StringRef path = file->getFilename().getValue();
    auto [it, inserted] = files.try_emplace(path);
    if (inserted)
      if (auto buffer = llvm::MemoryBuffer::getFile(path))
        it->second = std::move(*buffer);
    if (!it->second)
      return {};
    text = it->second->getBuffer();
  }
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
