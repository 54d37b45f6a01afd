//===- Expr.cpp - Integer formulas of a kernel's scalars ------------------===//

#include "kernelskill/Runtime/Expr.h"

#include <cctype>
#include <limits>

using namespace mlir::ks::runtime;

namespace {
/// A recursive-descent evaluator; the formulas are short, so no AST.
class Evaluator {
public:
  Evaluator(const std::string &text, const ScalarValues &scalars)
      : text(text), scalars(scalars) {}

  std::variant<int64_t, ExprError> run() {
    int64_t value = parseSum();
    skipSpace();
    if (!failed && pos != text.size())
      fail("unexpected '" + std::string(1, text[pos]) + "'");
    if (failed)
      return ExprError{error};
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
  int64_t checked(__int128 value) {
    if (value > std::numeric_limits<int64_t>::max() ||
        value < std::numeric_limits<int64_t>::min())
      return fail("integer overflow");
    return static_cast<int64_t>(value);
  }

  int64_t parseSum() {
    int64_t value = parseProduct();
    while (!failed) {
      if (consume('+'))
        value = checked(__int128(value) + parseProduct());
      else if (consume('-'))
        value = checked(__int128(value) - parseProduct());
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
      if (op == '*') {
        value = checked(__int128(value) * rhs);
      } else if (rhs == 0) {
        pos = at;
        return fail("division by zero");
      } else {
        value = op == '/' ? value / rhs : value % rhs;
      }
    }
    return value;
  }

  int64_t parseUnary() {
    if (consume('-'))
      return checked(-__int128(parseUnary()));
    return parsePrimary();
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
    if (std::isdigit(static_cast<unsigned char>(c))) {
      __int128 value = 0;
      while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos]))) {
        value = value * 10 + (text[pos++] - '0');
        if (value > std::numeric_limits<int64_t>::max())
          return fail("number too large");
      }
      return static_cast<int64_t>(value);
    }
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

  int64_t parseCall(const std::string &name, size_t start) {
    if (name != "ceildiv" && name != "min" && name != "max") {
      pos = start;
      return fail("unknown function '" + name + "' (known: ceildiv, min, max)");
    }
    int64_t a = parseSum();
    if (!failed && !consume(','))
      return fail("expected ',' in " + name + "(a, b)");
    int64_t b = parseSum();
    if (!failed && !consume(')'))
      return fail("expected ')'");
    if (failed)
      return 0;
    if (name == "min")
      return a < b ? a : b;
    if (name == "max")
      return a > b ? a : b;
    if (b <= 0) {
      pos = start;
      return fail("ceildiv by a non-positive value");
    }
    return a >= 0 ? checked((__int128(a) + b - 1) / b) : a / b;
  }
};
} // namespace

std::variant<int64_t, ExprError> mlir::ks::runtime::evaluate(const std::string &formula,
                                                             const ScalarValues &scalars) {
  return Evaluator(formula, scalars).run();
}
