//===- Iteration.cpp - Re-profiling the winner between search rounds ------===//

#include "kernelskill/Driver/Iteration.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace mlir::ks;

double RoundDiagnosis::headroom() const {
  double f = ofFloor();
  return f < 0 ? -1 : std::clamp(1 - f, 0.0, 1.0);
}

std::optional<std::string> mlir::ks::targetReached(const RoundDiagnosis &r, double target) {
  if (target <= 0 || r.ofFloor() < 0 || r.ofFloor() < target || r.beyondFloor())
    return std::nullopt;
  return llvm::formatv("the target is reached: {0} is at {1:f2} of the roofline floor "
                       "({2:f4} ms {3}, floor {4:f4} ms), target={5:f2}",
                       r.candidate, r.ofFloor(), r.ms, r.measured ? "measured" : "predicted",
                       r.floorMs, target)
      .str();
}

std::string mlir::ks::describeRound(const RoundDiagnosis &r) {
  std::string text = llvm::formatv("round {0}: {1}, {2:f4} ms {3}", r.round, r.candidate, r.ms,
                                   r.measured ? "measured" : "predicted")
                         .str();
  if (r.ofFloor() < 0)
    return text + ", no roofline floor known";
  text += llvm::formatv(", {0:f2} of the roofline floor ({1:f4} ms), headroom {2:f2}", r.ofFloor(),
                        r.floorMs, r.headroom())
              .str();
  if (r.beyondFloor())
    text += " (faster than the floor: not a lone launch from a cold L2, which the floor "
            "describes; not compared with the target)";
  return text;
}
