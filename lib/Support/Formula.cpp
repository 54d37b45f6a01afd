//===- Formula.cpp - Integer formulas of a kernel's scalars ---------------===//

#include "kernelskill/Support/Formula.h"
#include "kernelskill/Support/IntegerArith.h"

#include <cctype>
#include <limits>
#include <optional>

using namespace mlir::ks;

namespace {
std::string trim(const std::string &s) {
  size_t b = s.find_first_not_of(" \t\n"), e = s.find_last_not_of(" \t\n");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

/// A recursive-descent evaluator; the formulas are short, so no AST.
class Evaluator {
public:
  Evaluator(const std::string &text, const ScalarValues &scalars)
      : text(text), scalars(scalars) {}

  std::variant<int64_t, FormulaError> run() {
    int64_t value = parseSum();
    skipSpace();
    if (!failed && pos != text.size())
      fail("unexpected '" + std::string(1, text[pos]) + "'");
    if (failed)
      return FormulaError{error};
    return value;
  }

private:
  const std::string &text;
  const ScalarValues &scalars;
  size_t pos = 0;
  bool failed = false;
  std::string error;

  int64_t fail(const std::string &message) {
    if (!failed) {
      failed = true;
      error = "in formula '" + text + "' at column " + std::to_string(pos + 1) + ": " + message;
    }
    return 0;
  }
  void skipSpace() {
    while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos])))
      ++pos;
  }
  bool consume(char c) {
    skipSpace();
    if (pos < text.size() && text[pos] == c) {
      ++pos;
      return true;
    }
    return false;
  }
  /// A division's result, or the error of the undefined cases at `at`.
  int64_t divided(std::optional<int64_t> result, int64_t divisor, size_t at) {
    if (result)
      return *result;
    pos = at;
    return fail(divisor == 0 ? "division by zero"
                             : "signed division overflows (the most negative value by -1)");
  }

  int64_t parseSum() {
    int64_t value = parseProduct();
    while (!failed) {
      if (consume('+'))
        value = addWrap(value, parseProduct());
      else if (consume('-'))
        value = subWrap(value, parseProduct());
      else
        break;
    }
    return value;
  }

  int64_t parseProduct() {
    int64_t value = parseUnary();
    while (!failed) {
      char op = 0;
      for (char c : {'*', '/', '%'})
        if (!op && consume(c))
          op = c;
      if (!op)
        break;
      size_t at = pos;
      int64_t rhs = parseUnary();
      if (failed)
        break;
      if (op == '*')
        value = mulWrap(value, rhs);
      else
        value = divided(op == '/' ? divS(value, rhs) : remS(value, rhs), rhs, at);
    }
    return value;
  }

  int64_t parseUnary() {
    if (consume('-')) {
      skipSpace();
      // -9223372036854775808 is a literal, though its magnitude is not.
      if (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos])))
        return negWrap(parseNumber(/*negated=*/true));
      return negWrap(parseUnary());
    }
    return parsePrimary();
  }

  int64_t parseNumber(bool negated) {
    uint64_t limit = uint64_t(std::numeric_limits<int64_t>::max()) + (negated ? 1 : 0);
    uint64_t value = 0;
    while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos]))) {
      unsigned digit = unsigned(text[pos++] - '0');
      if (value > (limit - digit) / 10)
        return fail("number too large");
      value = value * 10 + digit;
    }
    return int64_t(value); // 2^63 wraps to INT64_MIN, which negWrap keeps
  }

  int64_t parsePrimary() {
    skipSpace();
    if (pos >= text.size())
      return fail("expected a number, a name or '('");
    if (consume('(')) {
      int64_t value = parseSum();
      if (!failed && !consume(')'))
        return fail("expected ')'");
      return value;
    }
    char c = text[pos];
    if (std::isdigit(static_cast<unsigned char>(c)))
      return parseNumber(/*negated=*/false);
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t start = pos;
      while (pos < text.size() &&
             (std::isalnum(static_cast<unsigned char>(text[pos])) || text[pos] == '_'))
        ++pos;
      std::string name = text.substr(start, pos - start);
      if (consume('('))
        return parseCall(name, start);
      auto it = scalars.find(name);
      if (it == scalars.end()) {
        pos = start;
        return fail("unknown scalar '" + name + "'");
      }
      return it->second;
    }
    return fail("expected a number, a name or '('");
  }

  /// A function: its arguments, then the function of them.
  int64_t parseCall(const std::string &name, size_t start) {
    struct Function {
      const char *name;
      unsigned minArgs, maxArgs; ///< a last, optional argument is the width
    };
    static constexpr Function kFunctions[] = {
        {"ceildiv", 2, 2}, {"floordiv", 2, 2}, {"min", 2, 2},      {"max", 2, 2},
        {"udiv", 2, 3},    {"urem", 2, 3},     {"ceildivu", 2, 3}, {"minu", 2, 3},
        {"maxu", 2, 3},    {"trunc", 2, 2},    {"zext", 2, 2}};
    const Function *fn = nullptr;
    for (const Function &f : kFunctions)
      if (name == f.name)
        fn = &f;
    if (!fn) {
      pos = start;
      return fail("unknown function '" + name +
                  "' (known: ceildiv, floordiv, min, max, udiv, urem, ceildivu, minu, maxu, "
                  "trunc, zext)");
    }
    std::vector<int64_t> args;
    size_t widthAt = pos;
    if (!consume(')')) {
      do {
        skipSpace();
        widthAt = pos;
        args.push_back(parseSum());
      } while (!failed && consume(','));
      if (!failed && !consume(')'))
        return fail("expected ',' or ')'");
    }
    if (failed)
      return 0;
    if (args.size() < fn->minArgs || args.size() > fn->maxArgs) {
      pos = start;
      return fail(name + " takes " + std::to_string(fn->minArgs) +
                  (fn->maxArgs > fn->minArgs ? " or " + std::to_string(fn->maxArgs) : "") +
                  " arguments, not " + std::to_string(args.size()));
    }
    unsigned width = 64;
    if (args.size() == 3 || name == "trunc" || name == "zext") {
      if (args.back() < 1 || args.back() > 64) {
        pos = widthAt;
        return fail("a width must be between 1 and 64 bits, not " + std::to_string(args.back()));
      }
      width = unsigned(args.back());
    }
    int64_t a = args[0], b = args.size() > 1 ? args[1] : 0;
    if (name == "trunc")
      return normalizeInteger(a, width);
    if (name == "zext")
      return int64_t(asUnsignedInteger(a, width)); // zext to 64 of zext from 64: as it is
    if (name == "min")
      return a < b ? a : b;
    if (name == "max")
      return a > b ? a : b;
    if (name == "minu")
      return minU(a, b, width);
    if (name == "maxu")
      return maxU(a, b, width);
    std::optional<int64_t> result = name == "ceildiv"    ? ceilDivS(a, b)
                                    : name == "floordiv" ? floorDivS(a, b)
                                    : name == "udiv"     ? divU(a, b, width)
                                    : name == "urem"     ? remU(a, b, width)
                                                         : ceilDivU(a, b, width);
    return divided(result, normalizeInteger(b, width), start);
  }
};
} // namespace

std::variant<int64_t, FormulaError> mlir::ks::evaluateFormula(const std::string &formula,
                                                              const ScalarValues &scalars) {
  return Evaluator(formula, scalars).run();
}

std::vector<std::string> mlir::ks::splitTopLevel(const std::string &text, char sep) {
  std::vector<std::string> parts;
  int depth = 0;
  std::string current;
  for (char c : text) {
    if (c == '(' || c == '[')
      ++depth;
    else if (c == ')' || c == ']')
      --depth;
    if (c == sep && depth == 0) {
      parts.push_back(trim(current));
      current.clear();
    } else {
      current += c;
    }
  }
  parts.push_back(trim(current));
  return parts;
}

bool mlir::ks::isIdentifier(const std::string &s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_'))
    return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_'))
      return false;
  return true;
}

namespace {
/// An identifier, or identifiers joined by dots ("block.x"): the analyses'
/// launch-dimension overrides are named so.
bool isWorkloadName(const std::string &name) {
  size_t start = 0;
  while (true) {
    size_t dot = name.find('.', start);
    if (!isIdentifier(name.substr(start, dot - start)))
      return false;
    if (dot == std::string::npos)
      return true;
    start = dot + 1;
  }
}
} // namespace

bool mlir::ks::parseWorkload(const std::string &text, ScalarValues &values, std::string &error) {
  for (const std::string &item : splitTopLevel(text)) {
    if (item.empty())
      continue;
    size_t eq = item.find('=');
    std::string name = trim(item.substr(0, eq));
    if (eq == std::string::npos || !isWorkloadName(name)) {
      error = "workload entry '" + item + "' is not NAME=INTEGER";
      return false;
    }
    auto value = evaluateFormula(trim(item.substr(eq + 1)), values);
    if (auto *err = std::get_if<FormulaError>(&value)) {
      error = "workload entry '" + item + "' is not NAME=INTEGER: " + err->message;
      return false;
    }
    values[name] = std::get<int64_t>(value);
  }
  return true;
}
