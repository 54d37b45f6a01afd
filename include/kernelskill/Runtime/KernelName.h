//===- KernelName.h - Finding a kernel by its source name -------*- C++ -*-===//
//
// A kernel with C++ linkage (what `ks optimize` exports, as the source
// declared it) has a mangled symbol in its PTX: `saxpy(int, float, const
// float*, float*)` is `_Z5saxpyifPKfPf`. ks-bench takes kernels by their
// source name, so a name with no symbol of its own is looked up among the
// module's symbols as the Itanium mangling of a free function of that name.
// Standard library only (the runtime builds without LLVM).
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_RUNTIME_KERNELNAME_H
#define KERNELSKILL_RUNTIME_KERNELNAME_H

#include <string>
#include <vector>

namespace mlir::ks::runtime {

/// Whether `symbol` is the Itanium mangling of a function `name` at global
/// scope: `_Z` <length of name> <name>, then its parameter types.
inline bool isMangledNameOf(const std::string &symbol, const std::string &name) {
  std::string prefix = "_Z" + std::to_string(name.size()) + name;
  return !name.empty() && symbol.size() > prefix.size() && symbol.compare(0, prefix.size(), prefix) == 0;
}

/// The one symbol of `symbols` that is `name` mangled (isMangledNameOf), or
/// empty when none is or several are (overloads: the name is ambiguous).
inline std::string mangledSymbolOf(const std::vector<std::string> &symbols,
                                   const std::string &name) {
  std::string found;
  for (const std::string &s : symbols)
    if (isMangledNameOf(s, name)) {
      if (!found.empty())
        return "";
      found = s;
    }
  return found;
}

} // namespace mlir::ks::runtime

#endif // KERNELSKILL_RUNTIME_KERNELNAME_H
