//===- PtxasReport.cpp - Reading `ptxas -v`'s resource report -------------===//

#include "kernelskill/Analysis/PtxasReport.h"

#include <regex>
#include <sstream>

using namespace mlir::ks;

std::map<std::string, PtxasFunctionInfo> mlir::ks::parsePtxasReport(const std::string &report) {
  static const std::regex entry(R"(Compiling entry function '([^']+)')");
  static const std::regex properties(R"(Function properties for ([A-Za-z_$][\w$]*))");
  static const std::regex stack(
      R"((\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads)");
  static const std::regex used(R"(Used (\d+) registers)");
  static const std::regex barriers(R"(used (\d+) barriers)");
  static const std::regex smem(R"((\d+) bytes smem)");
  static const std::regex cmem(R"((\d+) bytes cmem\[0\])");

  std::map<std::string, PtxasFunctionInfo> functions;
  std::string current;   // the entry the "Used ..." line belongs to
  std::string described; // the function the stack line belongs to
  std::istringstream in(report);
  std::string line;
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_search(line, m, entry)) {
      current = m[1];
      functions[current];
    } else if (std::regex_search(line, m, properties)) {
      described = m[1];
    } else if (std::regex_search(line, m, stack)) {
      // Device functions have properties too; keep only entries'.
      if (auto it = functions.find(described); it != functions.end()) {
        it->second.stackFrameBytes = std::stoll(m[1]);
        it->second.spillStoreBytes = std::stoll(m[2]);
        it->second.spillLoadBytes = std::stoll(m[3]);
      }
    } else if (std::regex_search(line, m, used) && !current.empty()) {
      PtxasFunctionInfo &f = functions[current];
      f.registers = std::stoll(m[1]);
      if (std::regex_search(line, m, barriers))
        f.barriers = std::stoll(m[1]);
      if (std::regex_search(line, m, smem))
        f.sharedBytes = std::stoll(m[1]);
      if (std::regex_search(line, m, cmem))
        f.constantBytes = std::stoll(m[1]);
    }
  }
  return functions;
}
