//===- SourceText.h - What the source says at a location ---------*- C++ -*-===//
//
// Reports quote the kernel's own source: `b[col * k + p]` reads better than a
// polynomial. Locations of imported kernels point into the .cu file; these
// helpers read it (once per file) and cut out the expression at a location.
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_ANALYSIS_SOURCETEXT_H
#define KERNELSKILL_ANALYSIS_SOURCETEXT_H

#include "mlir/IR/Location.h"

#include <optional>
#include <string>

namespace mlir::ks {

/// The file/line/column a location carries, through names and fusions.
std::optional<FileLineColLoc> getFileLoc(Location loc);

/// The identifier at `loc` followed by its balanced `[...]` subscripts
/// (`tile[ty][tx]`), or "" when the file is not readable or the text there is
/// not an identifier. With `requireSubscript`, "" unless a subscript follows.
std::string getSourceAccess(Location loc, bool requireSubscript);

/// "file.cu:12" for a location with a file, else "".
std::string shortLocation(Location loc);

} // namespace mlir::ks

#endif // KERNELSKILL_ANALYSIS_SOURCETEXT_H
