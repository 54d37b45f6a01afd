//===- PatchPTX.cpp - Rewrite PTX instructions that miscompute ------------===//
//
// Why: see KSPatchPTX's description in Passes.td (a workaround for a wrong
// result measured on the H200, not isolated to one instruction).
// The rewrites work on the PTX text rather than on LLVM IR because the
// instruction appears only at instruction selection: LLVM's InstCombine moves
// an f32 negation past the truncation to bf16 and the NVPTX backend selects
// `neg.bf16` for the result, after any MLIR- or IR-level pass could act.
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Target/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Regex.h"

namespace mlir::ks {
#define GEN_PASS_DEF_KSPATCHPTX
#include "kernelskill/Target/Passes.h.inc"
} // namespace mlir::ks

using namespace mlir;
using namespace mlir::ks;

/// Rewrites one PTX instruction line, or returns std::nullopt when it needs
/// none. The predicate guard, the indentation and the registers are kept.
static std::optional<std::string> patchLine(StringRef line) {
  // [indent][@guard ]neg[.ftz].bf16[x2] dst, src;
  static const llvm::Regex negBf16(
      "^([ \t]*)(@!?%[A-Za-z0-9_]+[ \t]+)?neg(\\.ftz)?\\.bf16(x2)?[ \t]+(%[A-Za-z0-9_]+),[ \t]*"
      "(%[A-Za-z0-9_]+);(.*)$");
  SmallVector<StringRef, 8> m;
  if (!negBf16.match(line, &m))
    return std::nullopt;
  bool pair = !m[4].empty();
  return (m[1] + m[2] + (pair ? "xor.b32 \t" : "xor.b16 \t") + m[5] + ", " + m[6] +
          (pair ? ", 0x80008000;" : ", 0x8000;") + m[7] + "  // ks: was neg.bf16" +
          (pair ? "x2" : ""))
      .str();
}

namespace {
struct PatchPTXPass : public ks::impl::KSPatchPTXBase<PatchPTXPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    unsigned rewrites = 0;
    module.walk([&](gpu::BinaryOp binary) {
      SmallVector<Attribute> objects;
      bool changed = false;
      for (Attribute attr : binary.getObjects()) {
        auto object = dyn_cast<gpu::ObjectAttr>(attr);
        if (!object || object.getFormat() != gpu::CompilationTarget::Assembly) {
          objects.push_back(attr);
          continue;
        }
        std::string text;
        bool objectChanged = false;
        StringRef rest = object.getObject().getValue();
        while (!rest.empty()) {
          auto [line, tail] = rest.split('\n');
          if (std::optional<std::string> patched = patchLine(line)) {
            text += *patched;
            objectChanged = true;
            ++rewrites;
          } else {
            text += line;
          }
          if (rest.size() > line.size())
            text += '\n';
          rest = tail;
        }
        if (!objectChanged) {
          objects.push_back(attr);
          continue;
        }
        changed = true;
        objects.push_back(gpu::ObjectAttr::get(
            object.getContext(), object.getTarget(), object.getFormat(),
            StringAttr::get(object.getContext(), text), object.getProperties(),
            object.getKernels()));
      }
      if (changed)
        binary.setObjectsAttr(ArrayAttr::get(binary.getContext(), objects));
    });
    if (rewrites)
      emitRemark(module.getLoc()) << "ks-patch-ptx: replaced " << rewrites
                                  << " bf16 negation" << (rewrites == 1 ? "" : "s")
                                  << " (neg.bf16) with a sign-bit xor";
  }
};
} // namespace
