//===- Choices.h - Enumerated options that name their choices ----*- C++ -*-===//
//
// Every KernelSkill option with a fixed set of values is an enum option
// (`::llvm::cl::values`), declared once here, so the pass-option machinery
// checks it and `--help` lists it. LLVM's enum parser rejects an unknown
// value with "Cannot find option named 'x'!"; ChoiceParser, used for each
// enum below, says which option it was and what the valid choices are.
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_SUPPORT_CHOICES_H
#define KERNELSKILL_SUPPORT_CHOICES_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"

#include <string>

namespace mlir::ks {

/// How an agent prints what it found (besides the attributes it writes).
enum class ReportFormat { None, Text, JSON };
/// Where the architecture profiler's capability list comes from.
enum class ArchSource { Database, Device };
/// What the lowering leaves in each gpu.binary.
enum class BinaryFormat { PTX, Cubin };
/// How the agent driver compares candidates: the cost model and ptxas
/// alone, measurements on the local GPU, or the GPU when there is one.
enum class MeasureMode { Static, Cuda, Auto };
/// Which arithmetic the user allows an optimized kernel: exactly the source's
/// (reassociated sums only), TF32 tensor-core products, or fast math.
enum class Precision { Strict, TF32, Fast };
/// What the agent driver minimizes: one launch's time alone on the GPU, the
/// time per launch when many independent launches run at once, or the
/// board's energy per launch (measured with NVML).
enum class Objective { Latency, Throughput, Energy };
/// Which analysis ks-print-analysis prints.
enum class AnalysisKind {
  Index,
  Coalescing,
  BankConflicts,
  Divergence,
  Reuse,
  Resources,
  Occupancy,
  Roofline,
  Latency
};

/// llvm::cl's generic enum parser with an error that lists the choices.
template <typename T> class ChoiceParser : public llvm::cl::generic_parser_base {
protected:
  struct OptionInfo : public llvm::cl::generic_parser_base::GenericOptionInfo {
    OptionInfo(llvm::StringRef name, T v, llvm::StringRef help)
        : GenericOptionInfo(name, help), V(v) {}
    llvm::cl::OptionValue<T> V;
  };
  llvm::SmallVector<OptionInfo, 8> Values;

public:
  using parser_data_type = T;
  explicit ChoiceParser(llvm::cl::Option &o) : generic_parser_base(o) {}

  unsigned getNumOptions() const override { return unsigned(Values.size()); }
  llvm::StringRef getOption(unsigned n) const override { return Values[n].Name; }
  llvm::StringRef getDescription(unsigned n) const override { return Values[n].HelpStr; }
  const llvm::cl::GenericOptionValue &getOptionValue(unsigned n) const override {
    return Values[n].V;
  }

  bool parse(llvm::cl::Option &o, llvm::StringRef argName, llvm::StringRef arg, T &v) {
    llvm::StringRef value = Owner.hasArgStr() ? arg : argName;
    for (const OptionInfo &info : Values)
      if (info.Name == value) {
        v = info.V.getValue();
        return false;
      }
    std::string valid;
    for (const OptionInfo &info : Values)
      valid += (valid.empty() ? "" : ", ") + info.Name.str();
    return o.error("unknown value '" + value + "'; valid choices: " + valid);
  }

  template <typename DT>
  void addLiteralOption(llvm::StringRef name, const DT &v, llvm::StringRef help) {
    Values.push_back(OptionInfo(name, static_cast<T>(v), help));
    AddLiteralOption(Owner, name);
  }
  void removeLiteralOption(llvm::StringRef name) {
    unsigned n = findOption(name);
    Values.erase(Values.begin() + n);
  }
};

} // namespace mlir::ks

#define KS_CHOICE_PARSER(T)                                                                        \
  template <> class llvm::cl::parser<T> : public ::mlir::ks::ChoiceParser<T> {                     \
  public:                                                                                          \
    using ::mlir::ks::ChoiceParser<T>::ChoiceParser;                                               \
  };
KS_CHOICE_PARSER(::mlir::ks::ReportFormat)
KS_CHOICE_PARSER(::mlir::ks::ArchSource)
KS_CHOICE_PARSER(::mlir::ks::BinaryFormat)
KS_CHOICE_PARSER(::mlir::ks::AnalysisKind)
KS_CHOICE_PARSER(::mlir::ks::MeasureMode)
KS_CHOICE_PARSER(::mlir::ks::Precision)
KS_CHOICE_PARSER(::mlir::ks::Objective)
#undef KS_CHOICE_PARSER

/// The `::llvm::cl::values` of each enum, for Passes.td and pipeline options.
#define KS_REPORT_FORMAT_VALUES                                                                    \
  ::llvm::cl::values(clEnumValN(::mlir::ks::ReportFormat::None, "none", "no report"),              \
                     clEnumValN(::mlir::ks::ReportFormat::Text, "text", "for people"),             \
                     clEnumValN(::mlir::ks::ReportFormat::JSON, "json", "for programs"))
#define KS_ARCH_SOURCE_VALUES                                                                      \
  ::llvm::cl::values(                                                                              \
      clEnumValN(::mlir::ks::ArchSource::Database, "database", "the architecture database"),     \
      clEnumValN(::mlir::ks::ArchSource::Device, "device", "the live GPU (CUDA driver API)"))
#define KS_MEASURE_MODE_VALUES                                                                     \
  ::llvm::cl::values(                                                                              \
      clEnumValN(::mlir::ks::MeasureMode::Static, "static",                                      \
                 "the cost model and ptxas decide (deterministic, no GPU)"),                     \
      clEnumValN(::mlir::ks::MeasureMode::Cuda, "cuda",                                          \
                 "measure and verify the best candidates on the local GPU (ks-bench)"),         \
      clEnumValN(::mlir::ks::MeasureMode::Auto, "auto",                                          \
                 "cuda where a GPU and ks-bench are usable, else static (and say so)"))
#define KS_PRECISION_VALUES                                                                        \
  ::llvm::cl::values(                                                                              \
      clEnumValN(::mlir::ks::Precision::Strict, "strict",                                        \
                 "the source's arithmetic (sums may be reassociated; verified at 1e-5)"),        \
      clEnumValN(::mlir::ks::Precision::TF32, "tf32",                                            \
                 "TF32 products allowed (verified at the TF32 tolerance)"),                      \
      clEnumValN(::mlir::ks::Precision::Fast, "fast",                                            \
                 "fast math allowed (verified at the TF32 tolerance)"))
#define KS_OBJECTIVE_VALUES                                                                        \
  ::llvm::cl::values(                                                                              \
      clEnumValN(::mlir::ks::Objective::Latency, "latency",                                      \
                 "one launch's time, alone on the GPU"),                                          \
      clEnumValN(::mlir::ks::Objective::Throughput, "throughput",                                \
                 "the time per launch with many independent launches at once (measure=cuda "    \
                 "times waves of concurrent launches)"),                                     \
      clEnumValN(::mlir::ks::Objective::Energy, "energy",                                        \
                 "the board's energy per launch (measure=cuda reads NVML's energy counter "      \
                 "over back-to-back launches)"))
#define KS_BINARY_FORMAT_VALUES                                                                    \
  ::llvm::cl::values(clEnumValN(::mlir::ks::BinaryFormat::PTX, "ptx", "PTX text"),                 \
                     clEnumValN(::mlir::ks::BinaryFormat::Cubin, "cubin", "assembled by ptxas"))
#define KS_ANALYSIS_KIND_VALUES                                                                    \
  ::llvm::cl::values(                                                                              \
      clEnumValN(::mlir::ks::AnalysisKind::Index, "index", "index polynomials"),                 \
      clEnumValN(::mlir::ks::AnalysisKind::Coalescing, "coalescing", "global coalescing"),       \
      clEnumValN(::mlir::ks::AnalysisKind::BankConflicts, "bank-conflicts", "shared banks"),     \
      clEnumValN(::mlir::ks::AnalysisKind::Divergence, "divergence", "branches and loops"),      \
      clEnumValN(::mlir::ks::AnalysisKind::Reuse, "reuse", "reuse and loop invariance"),         \
      clEnumValN(::mlir::ks::AnalysisKind::Resources, "resources", "registers, shared, stack"),  \
      clEnumValN(::mlir::ks::AnalysisKind::Occupancy, "occupancy", "resident warps"),            \
      clEnumValN(::mlir::ks::AnalysisKind::Roofline, "roofline", "floor and bound"),             \
      clEnumValN(::mlir::ks::AnalysisKind::Latency, "latency", "memory-level parallelism"))

#endif // KERNELSKILL_SUPPORT_CHOICES_H
