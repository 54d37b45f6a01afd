//===- LaunchSpec.cpp - Write the launch spec of a kernel -----------------===//
//
// Turns a host launcher into the JSON launch spec ks-bench reads
// (docs/Runtime.md), so a kernel in the IR can be measured without writing its
// launch by hand.
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Dialect/KS/IR/KSAttrs.h"
#include "kernelskill/Dialect/KS/IR/SourceNames.h"
#include "kernelskill/Target/LaunchSpec.h"
#include "kernelskill/Target/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/ToolOutputFile.h"

namespace mlir::ks {
#define GEN_PASS_DEF_KSEMITLAUNCHSPEC
#include "kernelskill/Target/Passes.h.inc"
} // namespace mlir::ks

using namespace mlir;
using namespace mlir::ks;

namespace {
/// The spec's name for a scalar or element type, if ks-bench supports it.
std::optional<StringRef> typeName(Type type) {
  if (type.isF16())
    return "f16";
  if (type.isBF16())
    return "bf16";
  if (type.isF32())
    return "f32";
  if (type.isF64())
    return "f64";
  if (type.isIndex())
    return "i64";
  if (auto integer = dyn_cast<IntegerType>(type)) {
    switch (integer.getWidth()) {
    case 8:
      return integer.isUnsigned() ? "u8" : "i8";
    case 32:
      return integer.isUnsigned() ? "u32" : "i32";
    case 64:
      return integer.isUnsigned() ? "u64" : "i64";
    }
  }
  return std::nullopt;
}

/// Rebuilds the integer formula that computes `value` from the launcher's
/// named arguments and constants. Binary results are parenthesized; the
/// caller strips the outermost pair.
FailureOr<std::string> formulaOf(Value value, const DenseMap<Value, std::string> &names,
                                 Location useLoc) {
  if (auto it = names.find(value); it != names.end())
    return it->second;
  Operation *op = value.getDefiningOp();
  if (!op)
    return emitError(useLoc) << "ks-emit-launch-spec: a launch size depends on a block argument "
                                "that is not one of the launcher's arguments";
  auto binary = [&](StringRef infix, StringRef fn = {}) -> FailureOr<std::string> {
    FailureOr<std::string> lhs = formulaOf(op->getOperand(0), names, useLoc);
    if (failed(lhs))
      return failure();
    FailureOr<std::string> rhs = formulaOf(op->getOperand(1), names, useLoc);
    if (failed(rhs))
      return failure();
    if (!fn.empty())
      return (fn + "(" + *lhs + ", " + *rhs + ")").str();
    return ("(" + *lhs + " " + infix + " " + *rhs + ")").str();
  };
  return llvm::TypeSwitch<Operation *, FailureOr<std::string>>(op)
      .Case<arith::ConstantOp>([&](arith::ConstantOp c) -> FailureOr<std::string> {
        if (auto integer = dyn_cast<IntegerAttr>(c.getValue()))
          return std::to_string(integer.getInt());
        return c.emitError("ks-emit-launch-spec: a launch size uses a non-integer constant");
      })
      .Case<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp, arith::ExtUIOp,
            arith::TruncIOp>([&](Operation *cast) { return formulaOf(cast->getOperand(0), names, useLoc); })
      .Case<arith::AddIOp>([&](auto) { return binary("+"); })
      .Case<arith::SubIOp>([&](auto) { return binary("-"); })
      .Case<arith::MulIOp>([&](auto) { return binary("*"); })
      .Case<arith::DivUIOp, arith::DivSIOp>([&](auto) { return binary("/"); })
      .Case<arith::RemUIOp, arith::RemSIOp>([&](auto) { return binary("%"); })
      .Case<arith::CeilDivUIOp, arith::CeilDivSIOp>([&](auto) { return binary("", "ceildiv"); })
      .Case<arith::MinSIOp, arith::MinUIOp>([&](auto) { return binary("", "min"); })
      .Case<arith::MaxSIOp, arith::MaxUIOp>([&](auto) { return binary("", "max"); })
      .Default([&](Operation *other) -> FailureOr<std::string> {
        return other->emitError("ks-emit-launch-spec: cannot express the launch size computed "
                                "by '")
               << other->getName() << "' as a formula of the launcher's arguments";
      });
}

std::string stripParens(std::string formula) {
  if (formula.size() < 2 || formula.front() != '(' || formula.back() != ')')
    return formula;
  int depth = 0;
  for (size_t i = 0; i + 1 < formula.size(); ++i) {
    depth += formula[i] == '(' ? 1 : formula[i] == ')' ? -1 : 0;
    if (depth == 0)
      return formula; // "(a) + (b)": the outer pair does not enclose everything
  }
  return formula.substr(1, formula.size() - 2);
}

/// How a kernel uses a buffer argument: read, written or both. Follows
/// view-like ops; an op whose effects are unknown counts as both.
std::pair<bool, bool> accessesOf(Value buffer) {
  bool reads = false, writes = false;
  SmallVector<Value> worklist = {buffer};
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (auto view = dyn_cast<ViewLikeOpInterface>(user)) {
        worklist.push_back(view->getResult(0));
        continue;
      }
      auto effects = dyn_cast<MemoryEffectOpInterface>(user);
      if (!effects) {
        reads = writes = true;
        continue;
      }
      SmallVector<MemoryEffects::EffectInstance> instances;
      effects.getEffectsOnValue(v, instances);
      for (const MemoryEffects::EffectInstance &e : instances) {
        reads |= isa<MemoryEffects::Read>(e.getEffect());
        writes |= isa<MemoryEffects::Write>(e.getEffect());
      }
    }
  }
  return {reads, writes};
}

} // namespace

FailureOr<std::string> mlir::ks::buildLaunchSpec(gpu::LaunchFuncOp launch, func::FuncOp fn,
                                                 bool requireExtents) {
  auto kernel = SymbolTable::lookupNearestSymbolFrom<gpu::GPUFuncOp>(launch, launch.getKernel());
  if (!kernel)
    return launch.emitError("ks-emit-launch-spec: cannot find the launched kernel");
  auto workload = fn->getAttrOfType<WorkloadAttr>("ks.workload");

  // Names of the launcher's arguments.
  DenseMap<Value, std::string> names;
  for (auto [i, arg] : llvm::enumerate(fn.getArguments()))
    names[arg] = getArgumentName(fn, i);

  llvm::json::Array params;
  llvm::json::Object scalars;
  for (auto [i, operand] : llvm::enumerate(launch.getKernelOperands())) {
    auto it = names.find(operand);
    if (it == names.end())
      return launch.emitError("ks-emit-launch-spec: kernel operand #")
             << i << " is not an argument of the launcher; pass it through one";
    const std::string &name = it->second;
    llvm::json::Object param{{"name", name}};
    if (auto memref = dyn_cast<MemRefType>(operand.getType())) {
      std::optional<StringRef> elem = typeName(memref.getElementType());
      if (!elem)
        return launch.emitError("ks-emit-launch-spec: buffer '")
               << name << "' has element type " << memref.getElementType()
               << ", which ks-bench does not support";
      param["type"] = *elem;
      std::optional<int64_t> extent;
      if (memref.hasStaticShape())
        extent = memref.getNumElements();
      else if (workload)
        extent = workload.getBufferExtent(name);
      if (!extent && !requireExtents) {
        // A manifest without sizes: ks-bench asks for the extent.
      } else if (!extent)
        return launch.emitError("ks-emit-launch-spec: the extent of buffer '")
               << name << "' is unknown: give it (in elements) in the launcher's "
               << "ks.workload = #ks.workload<..., buffers = {" << name << " = N}>";
      if (extent)
        param["extent"] = std::to_string(*extent);
      auto [reads, writes] = accessesOf(kernel.getArgument(i));
      param["role"] = reads && writes ? "inout" : writes ? "out" : "in";
    } else {
      std::optional<StringRef> type = typeName(operand.getType());
      if (!type || *type == "f16" || *type == "bf16")
        return launch.emitError("ks-emit-launch-spec: scalar '")
               << name << "' has type " << operand.getType()
               << ", which ks-bench does not pass (integers, f32, f64)";
      param["type"] = *type;
      Attribute value = workload ? workload.getScalars().get(name) : Attribute();
      if (auto integer = dyn_cast_or_null<IntegerAttr>(value)) {
        scalars[name] = integer.getInt();
      } else if (auto real = dyn_cast_or_null<FloatAttr>(value)) {
        double d = real.getValueAsDouble();
        if (d != std::floor(d))
          return launch.emitError("ks-emit-launch-spec: scalar '")
                 << name << "' = " << d << ": ks-bench takes integral workload values";
        scalars[name] = int64_t(d);
      }
    }
    params.push_back(std::move(param));
  }

  auto dims = [&](gpu::KernelDim3 dim) -> FailureOr<llvm::json::Array> {
    llvm::json::Array out;
    for (Value v : {dim.x, dim.y, dim.z}) {
      FailureOr<std::string> formula = formulaOf(v, names, launch.getLoc());
      if (failed(formula))
        return failure();
      out.push_back(stripParens(*formula));
    }
    return out;
  };
  FailureOr<llvm::json::Array> grid = dims(launch.getGridSizeOperandValues());
  FailureOr<llvm::json::Array> block = dims(launch.getBlockSizeOperandValues());
  if (failed(grid) || failed(block))
    return failure();
  std::string smem = "0";
  if (Value dynamic = launch.getDynamicSharedMemorySize()) {
    FailureOr<std::string> formula = formulaOf(dynamic, names, launch.getLoc());
    if (failed(formula))
      return failure();
    smem = stripParens(*formula);
  }

  llvm::json::Object spec{{"kernel", kernel.getName().str()},
                          {"params", std::move(params)},
                          {"grid", std::move(*grid)},
                          {"block", std::move(*block)},
                          {"smem", smem},
                          {"scalars", std::move(scalars)}};
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(spec)));
  return text;
}

namespace {
struct EmitLaunchSpecPass : public ks::impl::KSEmitLaunchSpecBase<EmitLaunchSpecPass> {
  using KSEmitLaunchSpecBase::KSEmitLaunchSpecBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    gpu::LaunchFuncOp launch;
    func::FuncOp launcherFn;
    unsigned launches = 0;
    module.walk([&](gpu::LaunchFuncOp op) {
      auto fn = op->getParentOfType<func::FuncOp>();
      if (!fn || (!launcher.empty() && fn.getSymName() != launcher))
        return;
      ++launches;
      launch = op;
      launcherFn = fn;
    });
    if (launches != 1) {
      module.emitError() << "ks-emit-launch-spec: expected one gpu.launch_func"
                         << (launcher.empty() ? std::string("") : " in @" + launcher)
                         << ", found " << launches
                         << (launches ? "; pick the launcher with launcher=NAME" : "");
      return signalPassFailure();
    }
    if (failed(emit(launch, launcherFn)))
      signalPassFailure();
  }

  LogicalResult emit(gpu::LaunchFuncOp launch, func::FuncOp fn) {
    FailureOr<std::string> spec = buildLaunchSpec(launch, fn, /*requireExtents=*/true);
    if (failed(spec))
      return failure();
    std::string message;
    std::unique_ptr<llvm::ToolOutputFile> file = openOutputFile(path, &message);
    if (!file)
      return launch.emitError("ks-emit-launch-spec: cannot write '") << path << "': " << message;
    file->os() << *spec << "\n";
    file->keep();
    return success();
  }
};
} // namespace
