//===- TransformScripts.cpp - The scripts that apply candidates ----------===//
//
// A candidate is applied as a transform script of the library's ops
// (docs/Transforms.md), built with OpBuilder: the same script, printed, is
// what `schedule=FILE` writes.
//
//===----------------------------------------------------------------------===//

#include "KernelSearch.h"

#include "mlir/Dialect/Linalg/TransformOps/LinalgTransformOps.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/Dialect/Transform/Transforms/TransformInterpreterUtils.h"
#include "llvm/Support/xxhash.h"

using namespace mlir;
using namespace mlir::ks;

namespace mlir::ks::driver {
/// The transform op that applies `c` to the kernel matched as `%handle`, as
/// text: the transcript's account of the schedule (the IR itself is built by
/// buildScript).
std::string opText(const Candidate &c, MLIRContext *context, StringRef handle, StringRef result) {
  return (Twine("%") + result + " = " + c.family->transformOp + " %" + handle + " " +
          c.family->opAttributes(context, c.knobs) + " : (!transform.any_op) -> !transform.any_op")
      .str();
}

OwningOpRef<ModuleOp> buildScript(MLIRContext *context,
                                  ArrayRef<std::pair<std::string, const Candidate *>> steps,
                                  bool raise) {
  context->getOrLoadDialect<transform::TransformDialect>();
  Location loc = UnknownLoc::get(context);
  OpBuilder b(context);
  OwningOpRef<ModuleOp> script = ModuleOp::create(b, loc);
  (*script)->setAttr(transform::TransformDialect::kWithNamedSequenceAttrName, b.getUnitAttr());
  b.setInsertionPointToEnd(script->getBody());
  auto anyOp = transform::AnyOpType::get(context);
  // A standalone schedule consumes the lifted module (the raising replaces
  // its kernels); the driver's own scripts only read the handle.
  StringRef access = raise ? transform::TransformDialect::kArgConsumedAttrName
                           : transform::TransformDialect::kArgReadOnlyAttrName;
  auto entry = transform::NamedSequenceOp::create(
      b, loc, transform::TransformDialect::kTransformEntryPointSymbolName, anyOp, TypeRange(),
      [&](OpBuilder &b, Location loc, BlockArgument root) {
        Value payload = root;
        if (raise)
          payload = transform::ApplyRegisteredPassOp::create(b, loc, anyOp, root, "ks-raise",
                                                             b.getDictionaryAttr({}), ValueRange())
                        .getResult();
        for (auto &[kernel, candidate] : steps) {
          auto match = transform::MatchOp::create(
              b, loc, anyOp, payload, b.getStrArrayAttr({gpu::GPUFuncOp::getOperationName()}),
              transform::MatchInterfaceEnumAttr(),
              b.getDictionaryAttr(
                  b.getNamedAttr(SymbolTable::getSymbolAttrName(), b.getStringAttr(kernel))),
              TypeAttr(), ArrayAttr());
          OperationState state(loc, candidate->family->transformOp);
          state.addOperands(match.getResult());
          state.addTypes(anyOp);
          state.addAttributes(candidate->family->opAttributeList(b, candidate->knobs));
          b.create(state);
        }
        transform::YieldOp::create(b, loc);
      });
  // (NamedSequenceOp's builder drops its argAttrs.)
  entry.setArgAttr(0, access, b.getUnitAttr());
  return script;
}

/// In a copy made to compile one candidate, the other raised kernels (still
/// linalg, which only a schedule lowers) become empty: only the candidate's
/// figures are read from the copy.
void emptyOtherRaisedKernels(ModuleOp copy, StringRef keep) {
  copy.walk([&](gpu::GPUFuncOp f) {
    if (!f.isKernel() || f.getName() == keep || !f->hasAttr(kRaisedAttrName))
      return;
    Region &body = f.getBody();
    while (body.getBlocks().size() > 1)
      body.back().erase();
    Block &entry = body.front();
    while (!entry.empty())
      entry.back().erase();
    OpBuilder b = OpBuilder::atBlockEnd(&entry);
    gpu::ReturnOp::create(b, f.getLoc());
  });
}

LogicalResult applyScript(ModuleOp payload, ModuleOp script) {
  // A script's attributes match only payloads of its own context (the
  // evaluator compiles copies in contexts of their own).
  assert(payload.getContext() == script.getContext() && "a script of another context");
  auto entry = script.lookupSymbol<transform::NamedSequenceOp>(
      transform::TransformDialect::kTransformEntryPointSymbolName);
  if (!entry)
    return failure();
  return transform::applyTransformNamedSequence(payload, entry, script,
                                                transform::TransformOptions());
}

LogicalResult applyCandidate(ModuleOp payload, StringRef kernel, const Candidate &c) {
  OwningOpRef<ModuleOp> script = buildScript(payload.getContext(), {{kernel.str(), &c}}, false);
  return applyScript(payload, *script);
}

bool appliesToCopy(ModuleOp module, StringRef kernel, const Candidate &c, std::string *why) {
  OwningOpRef<ModuleOp> copy = cast<ModuleOp>(module->clone());
  ScopedDiagnosticHandler quiet(module.getContext(), [&](Diagnostic &diag) {
    if (why && why->empty() && diag.getSeverity() == DiagnosticSeverity::Error)
      *why = diag.str();
    return success();
  });
  return succeeded(applyCandidate(*copy, kernel, c));
}

/// A fingerprint of the kernel's code: its generic form without the facts
/// the profilers and agents attach (they describe the code, they are not it).
std::string fingerprintOf(gpu::GPUFuncOp kernel) {
  OwningOpRef<Operation *> copy = kernel->clone();
  dropKernelFacts(*copy);
  (*copy)->removeAttr(ProposalAttr::kKernelAttrName);
  std::string text;
  llvm::raw_string_ostream os(text);
  (*copy)->print(os, OpPrintingFlags().printGenericOpForm().elideLargeElementsAttrs());
  return llvm::formatv("{0:x16}", llvm::xxh3_64bits(text)).str();
}

/// The launches of `kernel` (and of its split-K init kernel) in `module`'s
/// launchers, in order, as a ks-bench manifest (a JSON array of launches).
FailureOr<std::string> manifestOf(ModuleOp module, StringRef kernel) {
  std::vector<std::string> launches;
  bool failedOne = false;
  module.walk([&](gpu::LaunchFuncOp launch) {
    StringRef name = launch.getKernelName();
    if (name != kernel && name != (kernel + "_split_init").str())
      return;
    FailureOr<std::string> spec =
        buildLaunchSpec(launch, launch->getParentOfType<func::FuncOp>(), false);
    if (failed(spec))
      failedOne = true;
    else
      launches.push_back(*spec);
  });
  if (failedOne || launches.empty())
    return failure();
  return "[" + llvm::join(launches, ",\n") + "]\n";
}

} // namespace mlir::ks::driver
