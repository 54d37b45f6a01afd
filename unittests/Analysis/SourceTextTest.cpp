//===- SourceTextTest.cpp - Quoting the source at a location --------------===//

#include "kernelskill/Analysis/SourceText.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <chrono>

using namespace mlir;
using namespace mlir::ks;

namespace {
/// A temporary .cu file, removed at the end of the test.
class TempSource {
public:
  TempSource() {
    int fd;
    EXPECT_FALSE(llvm::sys::fs::createTemporaryFile("ks-source-text", "cu", fd, path));
    llvm::sys::Process::SafelyCloseFileDescriptor(fd);
  }
  ~TempSource() { llvm::sys::fs::remove(path); }
  void write(llvm::StringRef text) {
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    ASSERT_FALSE(ec);
    os << text;
  }
  void touch(llvm::sys::TimePoint<> when) {
    int fd;
    ASSERT_FALSE(llvm::sys::fs::openFileForWrite(path, fd, llvm::sys::fs::CD_OpenExisting,
                                                 llvm::sys::fs::OF_Append));
    EXPECT_FALSE(llvm::sys::fs::setLastAccessAndModificationTime(fd, when, when));
    llvm::sys::Process::SafelyCloseFileDescriptor(fd);
  }
  llvm::SmallString<128> path;
};

TEST(SourceText, QuotesTheAccessAtALocation) {
  MLIRContext context;
  TempSource file;
  file.write("  out[i] = tile[ty][tx] + 1;\n");
  SourceFileCache cache;
  auto at = [&](unsigned col) { return FileLineColLoc::get(&context, file.path, 1, col); };
  EXPECT_EQ(getSourceAccess(at(3), /*requireSubscript=*/true, cache), "out[i]");
  EXPECT_EQ(getSourceAccess(at(12), /*requireSubscript=*/true, cache), "tile[ty][tx]");
  EXPECT_EQ(getSourceAccess(at(27), /*requireSubscript=*/true, cache), "");
  EXPECT_EQ(getSourceAccess(FileLineColLoc::get(&context, file.path, 9, 1), true, cache), "");
}

// An agent edits a kernel and profiles it again in the same process: the
// quote must come from the file as it is now.
TEST(SourceText, RereadsAChangedFile) {
  MLIRContext context;
  TempSource file;
  file.write("a[i] = 0;\n");
  SourceFileCache cache;
  Location loc = FileLineColLoc::get(&context, file.path, 1, 1);
  EXPECT_EQ(getSourceAccess(loc, /*requireSubscript=*/true, cache), "a[i]");
  // A different size is a change even within the file system's time tick.
  file.write("bb[i + 1] = 0;\n");
  EXPECT_EQ(getSourceAccess(loc, /*requireSubscript=*/true, cache), "bb[i + 1]");
  // The same size and a new modification time (set explicitly: two writes
  // can fall within one tick of the file system's clock).
  file.write("cc[i + 2] = 0;\n");
  file.touch(std::chrono::system_clock::now() + std::chrono::hours(1));
  EXPECT_EQ(getSourceAccess(loc, /*requireSubscript=*/true, cache), "cc[i + 2]");
}

TEST(SourceText, HeldBuffersSurviveARereadAndMissingFilesAreNull) {
  TempSource file;
  file.write("first\n");
  SourceFileCache cache;
  std::shared_ptr<const llvm::MemoryBuffer> held = cache.getFile(file.path);
  ASSERT_TRUE(held);
  file.write("second, longer\n");
  std::shared_ptr<const llvm::MemoryBuffer> now = cache.getFile(file.path);
  ASSERT_TRUE(now);
  EXPECT_EQ(held->getBuffer(), "first\n");
  EXPECT_EQ(now->getBuffer(), "second, longer\n");
  EXPECT_EQ(cache.getFile(file.path), now);
  llvm::sys::fs::remove(file.path);
  EXPECT_FALSE(cache.getFile(file.path));
}
} // namespace
