//===- FunctionEmitter.h - One C++ function as MLIR --------------*- C++ -*-===//
//
// The importer's code generator, split the way clang's CodeGenFunction is:
// one class whose members live in files by subject.
//
//   ImportTypes.cpp     C++ types as MLIR types, conversions between them
//   ImportStmt.cpp      statements and control flow
//   ImportExpr.cpp      expressions (a ConstStmtVisitor), places, pointers
//   ImportBuiltins.cpp  device calls: builtins, atomics, shuffles, inlining
//   ImportGlobals.cpp   __constant__ and __device__ variables as memref.global
//   KernelEmitter.cpp   __global__ functions as gpu.func
//   LauncherEmitter.cpp host functions that launch kernels, as func.func
//
// FunctionEmitter holds what kernels and launchers share; KernelEmitter and
// LauncherEmitter override the hooks where device and host code differ
// (builtin variables, launches, __shared__ and dim3 declarations, calls).
//
// Design: every function is first emitted as an unstructured control-flow
// graph (cf.br/cf.cond_br) with one memref.alloca slot per C variable, the
// way clang emits LLVM IR. That handles break, continue, early return, && /
// || and ?: uniformly. The structuring pipeline (lib/Pipelines:
// buildImportStructuringPipeline) then runs mem2reg and lifts the graph to
// scf. CUDA pointers are (memref, offset) pairs during import: the IR only
// ever sees base[offset + i] accesses.
//
// Errors go through MLIR's diagnostics (emitError at the construct's source
// location), so tools print them as "file:line:col: error: ..." and tests
// can use -verify-diagnostics. The first error of a function stops it.
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_LIB_FRONTEND_FUNCTIONEMITTER_H
#define KERNELSKILL_LIB_FRONTEND_FUNCTIONEMITTER_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"

#include "llvm/ADT/DenseMap.h"

#include <array>
#include <optional>
#include <string>

namespace mlir::ks::frontend {

/// A CUDA pointer during import: a memref and an element offset into it.
/// A float4 pointer made from a float pointer (reinterpret_cast) reads
/// `width` consecutive elements as one vector; its offset stays in elements.
struct Pointer {
  Value base;   ///< memref<?xT> (a parameter) or a local/shared array
  Value offset; ///< index
  int64_t width = 1;
};

/// An assignable place: a memref and its indices; `width` > 1 reads a vector
/// of consecutive elements; `lane` selects one component (v.x) of a vector.
struct LValue {
  Value memref;
  SmallVector<Value, 2> indices;
  int64_t width = 1;
  std::optional<int64_t> lane;
  const clang::VarDecl *var = nullptr; ///< the scalar variable, for names
};

/// Where a C variable lives.
struct Slot {
  enum Kind { Scalar, PointerVar, Array, Reference } kind = Scalar;
  Value storage;     ///< Scalar: memref<T>; Array: memref<NxT>
  Value base;        ///< PointerVar: the memref it points into
  Value offsetSlot;  ///< PointerVar: memref<index> holding the offset
  int64_t width = 1; ///< PointerVar: elements per pointee (4 for a float4 view)
  std::optional<LValue> place; ///< Reference: the place it names (T &x = a[i])
};

//===--- C++ types the importer gives a meaning (ImportTypes.cpp) --------===//

/// CUDA's vector types (float4, int2, uchar4, ...): structs of 1-4 scalar
/// fields x, y, z, w. Returns the element type and count.
std::optional<std::pair<clang::QualType, int64_t>> vectorRecord(clang::QualType t);
/// __half and __nv_bfloat16: classes in CUDA's headers, f16/bf16 here.
bool isHalfClass(clang::QualType t);
/// Types the importer treats as values although C++ sees classes.
inline bool isValueClass(clang::QualType t) {
  return isHalfClass(t) || vectorRecord(t).has_value();
}
bool isDim3(clang::QualType t);
/// threadIdx.x and friends: the variable's name and the dimension.
std::optional<std::pair<llvm::StringRef, gpu::Dimension>> builtinIndex(const clang::Expr *e);
/// "axpy" or, for template instantiations, "axpy<float, 4>" made an identifier.
std::string kernelName(const clang::FunctionDecl *fn);

/// What kernels and launchers share: statements, expressions, types.
class FunctionEmitter {
public:
  FunctionEmitter(MLIRContext *ctx, clang::ASTContext &ast)
      : ctx(ctx), ast(ast), sm(ast.getSourceManager()), b(ctx) {}
  virtual ~FunctionEmitter() = default;

  /// The MLIR location of a source location (its expansion, for macros).
  Location loc(clang::SourceLocation l);
  Location loc(const clang::Stmt *s) { return loc(s->getBeginLoc()); }

protected:
  friend class ScalarExprEmitter;

  MLIRContext *ctx;
  clang::ASTContext &ast;
  clang::SourceManager &sm;
  OpBuilder b;
  bool hadError = false;

  Region *body = nullptr; ///< the body of the function being emitted
  Block *entry = nullptr;
  llvm::DenseMap<const clang::VarDecl *, Slot> vars;
  struct LoopTargets {
    Block *continueDest, *breakDest;
  };
  /// Enclosing loops and switches (a switch has no continue target of its
  /// own: its enclosing loop's, or null).
  SmallVector<LoopTargets> loops;
  /// The block of each case label of the switches being emitted.
  llvm::DenseMap<const clang::SwitchCase *, Block *> caseBlocks;
  /// Inlined __device__ calls in progress: where `return` goes, and the slot
  /// holding the returned value.
  struct InlineFrame {
    const clang::FunctionDecl *fn;
    Block *exit;
    Value resultSlot;
  };
  SmallVector<InlineFrame> inlineStack;
  Block *returnBlock = nullptr;

  //===--- hooks: where kernels and launchers differ ----------------------===//

  /// threadIdx.x, blockIdx.y, ... as i32.
  virtual Value emitBuiltinVariable(llvm::StringRef name, gpu::Dimension dim,
                                    const clang::Expr *e) = 0;
  /// A `k<<<grid, block>>>(...)` statement.
  virtual void emitLaunch(const clang::CUDAKernelCallExpr *e) = 0;
  /// Declarations only one side has (__shared__ arrays, dim3): true when
  /// handled, with or without an error.
  virtual bool emitSpecialDecl(const clang::VarDecl *var) = 0;
  /// A call of a function.
  virtual Value emitCall(const clang::CallExpr *e) = 0;
  /// `s.x` where `s` is no vector type: dim3 members in host code.
  virtual std::optional<LValue> memberLValue(const clang::MemberExpr *e) = 0;
  /// A file-scope variable a function reads: its slot, bound on first use
  /// (kernels: __constant__ and __device__ variables, ImportGlobals.cpp);
  /// nullptr when `var` is none the function may use (no error reported).
  virtual Slot *bindGlobal(const clang::VarDecl *var) { return nullptr; }
  /// The dynamic shared memory (extern __shared__) as an array of `elem`;
  /// null after an error (host code has none).
  virtual Value dynamicSharedAs(clang::QualType elem, clang::SourceLocation where) {
    return error(where, "extern __shared__ memory belongs in kernels");
  }
  /// A pointer variable that has no slot (host code's device buffers).
  virtual std::optional<Pointer> unboundPointer(const clang::DeclRefExpr *e) {
    error(e, "unknown pointer '" + e->getDecl()->getName() + "'");
    return std::nullopt;
  }

  //===--- diagnostics ----------------------------------------------------===//

  /// Reports an error at `l` once; the emitter then unwinds.
  std::nullptr_t error(clang::SourceLocation l, const Twine &message);
  std::nullptr_t error(const clang::Stmt *s, const Twine &message) {
    return error(s->getBeginLoc(), message);
  }

  //===--- types (ImportTypes.cpp) ----------------------------------------===//

  Type scalarType(clang::QualType t, clang::SourceLocation where);
  bool isUnsigned(clang::QualType t) { return t->isUnsignedIntegerOrEnumerationType(); }
  /// Reports an error at `where` when `elem` cannot be the element of a
  /// buffer shared with CUDA code.
  bool isBufferElement(clang::QualType elem, clang::SourceLocation where);
  arith::IntegerOverflowFlags overflowFlags(clang::QualType t);
  /// Floating-point adds, subs and muls may be contracted into FMAs, as nvcc
  /// (--fmad=true) and clang (-ffp-contract=fast for CUDA) do by default.
  static arith::FastMathFlags contractable() { return arith::FastMathFlags::contract; }
  /// The parameters' types: pointers become dynamically sized 1-D memrefs,
  /// scalars keep their type.
  FailureOr<SmallVector<Type>> parameterTypes(const clang::FunctionDecl *fn);
  Value convert(Value v, clang::QualType from, clang::QualType to, const clang::Expr *at);
  Value toBool(Value v, const clang::Expr *at);

  //===--- slots ----------------------------------------------------------===//

  /// Where `var` lives: a local, a parameter or a bound global; nullptr when
  /// it has no slot here.
  Slot *findSlot(const clang::VarDecl *var);

  Value allocaAtEntry(MemRefType type, Location l);
  Value indexConst(int64_t v, Location l) { return arith::ConstantIndexOp::create(b, l, v); }
  Value load(Value slot, Location l) { return memref::LoadOp::create(b, l, slot, ValueRange{}); }
  void store(Value v, Value slot, Location l) {
    memref::StoreOp::create(b, l, v, slot, ValueRange{});
  }
  /// In __constant__ memory (cuda::kConstantMemorySpace, ImportGlobals.cpp).
  static bool isConstantMemory(Value memref);
  Value loadLValue(const LValue &lv, Location l);
  void storeLValue(Value v, const LValue &lv, Location l);
  void setVectorAlignment(Operation *op, const LValue &lv);
  /// Records that `v` is a value of C variable `var` (a NameLoc on the op
  /// computing it), so the exporter can name it after the variable.
  void nameAfter(Value v, const clang::VarDecl *var);
  /// An index from integer `i` of C type `t` (sign- or zero-extended).
  Value toIndex(Value i, clang::QualType t, Location l);

  //===--- blocks ---------------------------------------------------------===//

  /// Starts a block after a terminator, so code after break/return has a home.
  void startBlock(Block *block) {
    body->push_back(block);
    b.setInsertionPointToEnd(block);
  }
  Block *newBlock() { return new Block(); }
  void branchTo(Block *dest, Location l);

  /// Emits `fn`'s body into `region` (parameters `params` bound to `args`;
  /// pointer parameters get offset slots when `pointerOffsets`), ending in
  /// one exit block closed by `createReturn`.
  bool emitBody(const clang::FunctionDecl *fn, ArrayRef<const clang::ParmVarDecl *> params,
                Region &region, Block *entryBlock, ValueRange args, bool pointerOffsets,
                function_ref<void(Location)> createReturn);

  //===--- statements (ImportStmt.cpp) ------------------------------------===//

  virtual void emitStmt(const clang::Stmt *s);
  void emitDecl(const clang::VarDecl *var);
  /// The memref type of C array `var` (T a[N][M]) in `memorySpace`; null
  /// after an error.
  MemRefType arrayType(const clang::VarDecl *var, Attribute memorySpace);
  /// Stores braced list `list` into `array` from position `indices` on.
  void initializeArray(Value array, const clang::InitListExpr *list, SmallVector<Value> &indices);
  void emitIf(const clang::IfStmt *s);
  void emitFor(const clang::ForStmt *s);
  void emitWhile(const clang::WhileStmt *s);
  void emitDo(const clang::DoStmt *s);
  void emitSwitch(const clang::SwitchStmt *s);
  void emitReturn(const clang::ReturnStmt *s);

  //===--- expressions (ImportExpr.cpp) -----------------------------------===//

  Value rvalue(const clang::Expr *e);
  std::optional<Pointer> pointer(const clang::Expr *e);
  std::optional<LValue> lvalue(const clang::Expr *e);
  Value condition(const clang::Expr *e); ///< as i1
  Value binary(clang::BinaryOperatorKind op, Value lhs, Value rhs, clang::QualType type,
               const clang::Expr *at);
  Value compare(clang::BinaryOperatorKind op, Value lhs, Value rhs, clang::QualType operand,
                const clang::Expr *at);
  Value emitAssign(const clang::BinaryOperator *e);
  Value emitIncDec(const clang::UnaryOperator *e);
  Value emitLogical(const clang::BinaryOperator *e);
  Value emitConditional(const clang::ConditionalOperator *e);
  Value emitOperatorCall(const clang::CXXOperatorCallExpr *e);
  /// Inlines a call of a function of the user's (ImportBuiltins.cpp): a
  /// __device__ function in kernels, a host helper in launch slices.
  Value emitInlineCall(const clang::CallExpr *e, const clang::FunctionDecl *callee);
};

/// Emits one __global__ function as a gpu.func kernel (KernelEmitter.cpp),
/// with the device calls of ImportBuiltins.cpp.
class KernelEmitter : public FunctionEmitter {
public:
  using FunctionEmitter::FunctionEmitter;
  /// Emits `fn` into `module` as kernel `name`; false after an error.
  bool emitKernel(const clang::FunctionDecl *fn, gpu::GPUModuleOp module, llvm::StringRef name);

protected:
  gpu::GPUFuncOp func; ///< the kernel being emitted
  int64_t staticSharedBytes = 0;

  Value emitBuiltinVariable(llvm::StringRef name, gpu::Dimension dim,
                            const clang::Expr *e) override;
  void emitLaunch(const clang::CUDAKernelCallExpr *e) override;
  bool emitSpecialDecl(const clang::VarDecl *var) override;
  Value emitCall(const clang::CallExpr *e) override;
  std::optional<LValue> memberLValue(const clang::MemberExpr *e) override;
  Slot *bindGlobal(const clang::VarDecl *var) override;
  Value dynamicSharedAs(clang::QualType elem, clang::SourceLocation where) override;

  // ImportGlobals.cpp
  /// The initial value of file-scope variable `var` of memref type `type`
  /// (zeros without an initializer); null after an error.
  DenseElementsAttr globalInitializer(const clang::VarDecl *var, MemRefType type);

  // ImportBuiltins.cpp
  Value emitMathCall(llvm::StringRef name, const clang::CallExpr *e);
  Value emitAtomic(llvm::StringRef name, const clang::CallExpr *e);
  Value emitShuffle(llvm::StringRef name, const clang::CallExpr *e);
  /// __ballot_sync, __any_sync, __all_sync; __popc, __clz, __ffs (and ll).
  Value emitWarpVote(llvm::StringRef name, const clang::CallExpr *e);
  Value emitBitCount(llvm::StringRef name, const clang::CallExpr *e);
  std::optional<Value> emitHalfPairCall(llvm::StringRef name, const clang::CallExpr *e);
  /// cuda_fp16.h's comparisons, negations and NaN test on halves and pairs
  /// (__hlt, __hneu, __hbeq2, __hneg2, __hisnan, ...); nullopt for others.
  std::optional<Value> emitHalfPredicateCall(llvm::StringRef name, const clang::CallExpr *e);

  // ImportCooperativeGroups.cpp
  static std::optional<int64_t> groupSize(clang::QualType t);
  bool emitGroupDecl(const clang::VarDecl *var);
  std::optional<Value> emitGroupCall(const clang::CallExpr *e);
  Value linearThreadId(Location l);
  Value blockThreads(Location l);
  Value tileMask(int64_t size, Location l, Value *first = nullptr);
  void syncTile(int64_t size, Location l);
  Value tileVote(int64_t size, llvm::StringRef name, Value pred, Location l);
  Value tileShuffle(int64_t size, gpu::ShuffleMode mode, Value value, Value offset, Location l);
};

/// Emits a host function that launches kernels as a func.func launcher: its
/// launch slice (LauncherEmitter.cpp). The launches, the control flow around
/// them and the scalar computation of their sizes and arguments are
/// emitted; every other statement (allocation, copies, timing, I/O, CPU
/// work) is skipped. A scalar that skipped code computes becomes a
/// parameter of the launcher (named after the variable, with a remark), as
/// does each device buffer the function allocates itself.
class LauncherEmitter : public FunctionEmitter {
public:
  /// With `skipUnknownKernels` (a --kernel selection), launches of kernels
  /// that were not lifted are skipped like other host code.
  LauncherEmitter(MLIRContext *ctx, clang::ASTContext &ast, gpu::GPUModuleOp kernels,
                  bool skipUnknownKernels = false)
      : FunctionEmitter(ctx, ast), kernels(kernels), skipUnknownKernels(skipUnknownKernels) {}
  /// Emits host function `fn` at the end of `module`; false after an error.
  bool emitLauncher(const clang::FunctionDecl *fn, ModuleOp module);

protected:
  gpu::GPUModuleOp kernels; ///< the kernels it may launch
  bool skipUnknownKernels;
  func::FuncOp launcher;    ///< the launcher being emitted
  const clang::FunctionDecl *host = nullptr;
  /// dim3 variables: one i32 slot per component.
  llvm::DenseMap<const clang::VarDecl *, std::array<Value, 3>> dims;
  /// Parameters added for values the slice cannot compute, by variable.
  llvm::DenseMap<const clang::VarDecl *, Value> hostValues;
  /// Parameters added for device buffers the function holds in variables.
  llvm::DenseMap<const clang::VarDecl *, Value> buffers;
  /// Pointer variables host code assigns, and where.
  llvm::DenseMap<const clang::VarDecl *, clang::SourceLocation> reassignedBuffers;
  /// Device buffers the function allocates and frees itself and hands only
  /// to its kernels: no host code reads them (`ks.scratch`).
  llvm::DenseSet<const clang::VarDecl *> scratchBuffers;
  /// Pointer variables holding a device allocation of the function's own
  /// (cudaMalloc'd; `ks.allocated`).
  llvm::DenseSet<const clang::VarDecl *> allocatedBuffers;
  /// dim3 variables skipped code writes, and where.
  llvm::DenseMap<const clang::VarDecl *, clang::SourceLocation> opaqueDims;
  /// Members of struct parameters the slice reads, as launcher parameters
  /// (recordMember), and the parameters host code changes.
  llvm::DenseMap<std::pair<const clang::ParmVarDecl *, const clang::FieldDecl *>, Value>
      recordMembers;
  llvm::DenseMap<const clang::VarDecl *, clang::SourceLocation> writtenParams;
  bool recordParamsChecked = false;
  std::optional<LValue> recordMember(const clang::ParmVarDecl *param,
                                     const clang::MemberExpr *member);

  void emitStmt(const clang::Stmt *s) override;
  Value emitBuiltinVariable(llvm::StringRef name, gpu::Dimension dim,
                            const clang::Expr *e) override;
  void emitLaunch(const clang::CUDAKernelCallExpr *e) override;
  bool emitSpecialDecl(const clang::VarDecl *var) override;
  Value emitCall(const clang::CallExpr *e) override;
  std::optional<LValue> memberLValue(const clang::MemberExpr *e) override;
  std::optional<Pointer> unboundPointer(const clang::DeclRefExpr *e) override;

  std::optional<std::array<Value, 3>> dim3Value(const clang::Expr *e);
  /// False, after an error, when skipped code sets dim3 `ref`.
  bool checkDim3Known(const clang::DeclRefExpr *ref);
  /// The buffer a launch passes as a parameter of type `expected`.
  Value launchBuffer(const clang::Expr *arg, MemRefType expected);
  /// A launch-site cast of the launcher's parameter `param` to a buffer of
  /// vectors of its element (`(float4 *)in`): the parameter takes the
  /// kernel's type, its source type kept as ks.cxx_type for the exporter.
  /// Fails when the parameter was used before or the types do not fit.
  LogicalResult retypeForCast(const clang::Expr *arg, Value param, MemRefType expected);
  /// Skips `s`: each scalar variable it may write takes, from there on, the
  /// value of a parameter named after it.
  void skip(const clang::Stmt *s);
  /// Host code the slice skips that sets or reads module variables
  /// (cudaMemcpyToSymbol): named on the launcher (ks.host_symbol_copies,
  /// which the exporter writes as a comment) and warned about, since the
  /// kernels read what it sets and the launcher does not run it.
  void noteSymbolCopy(const clang::CallExpr *call);
  /// From here on, `var` holds what host code the slice skips set it to at
  /// `where`: a launcher parameter named after it (scalars), or unknown
  /// (dim3, an error where used).
  void setByHostCode(const clang::VarDecl *var, clang::SourceLocation where);
  /// Appends a parameter to the launcher.
  Value addParameter(Type type, llvm::StringRef name, Location l, bool hostValue);
};

/// Whether host code `s` has a kernel launch in it.
bool containsLaunch(const clang::Stmt *s);
/// Whether launch slices inline calls of host function `fn`: scalar
/// parameters and result, a body of declarations, ifs and returns of what
/// a slice can compute (`int divUp(int a, int b)`).
bool isSliceableHelper(const clang::FunctionDecl *fn, clang::ASTContext &ast);

} // namespace mlir::ks::frontend

#endif // KERNELSKILL_LIB_FRONTEND_FUNCTIONEMITTER_H
