//===- ReportStream.cpp - Where an agent's report goes --------------------===//

#include "kernelskill/Agents/ReportStream.h"

#include "llvm/Support/FileSystem.h"

using namespace mlir::ks;

namespace {
/// stderr, not owned.
class StderrStream : public llvm::raw_ostream {
  void write_impl(const char *data, size_t size) override { llvm::errs().write(data, size); }
  uint64_t current_pos() const override { return llvm::errs().tell(); }

public:
  StderrStream() { SetUnbuffered(); }
};
} // namespace

std::unique_ptr<llvm::raw_ostream> mlir::ks::openReport(llvm::StringRef path,
                                                        std::string &error) {
  if (path.empty())
    return std::make_unique<StderrStream>();
  std::error_code ec;
  auto file = std::make_unique<llvm::raw_fd_ostream>(path, ec, llvm::sys::fs::OF_Text);
  if (ec) {
    error = "cannot write the report to '" + path.str() + "': " + ec.message();
    return nullptr;
  }
  return file;
}
