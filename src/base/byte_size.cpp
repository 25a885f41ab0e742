#include "base/byte_size.hpp"

#include <fmt/format.h>

#include <cctype>
#include <limits>
#include <stdexcept>

namespace ccforge::base {
namespace {

struct Unit {
  std::string_view name;
  int shift;
};
constexpr Unit kUnits[] = {{"TiB", 40}, {"GiB", 30}, {"MiB", 20}, {"KiB", 10}};

bool sameLetters(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  return true;
}

}  // namespace

uint64_t parseByteSize(std::string_view text) {
  const std::string quoted = "size '" + std::string(text) + "'";
  uint64_t value = 0;
  size_t i = 0;
  for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i) {
    const auto digit = static_cast<uint64_t>(text[i] - '0');
    if (value > (std::numeric_limits<uint64_t>::max() - digit) / 10)
      throw std::invalid_argument(quoted + " is too large");
    value = value * 10 + digit;
  }
  if (i == 0) throw std::invalid_argument(quoted + " does not start with a number");
  const std::string_view unit = text.substr(i);
  int shift = -1;
  if (unit.empty() || sameLetters(unit, "B")) shift = 0;
  for (const Unit& u : kUnits) {
    const std::string letter(u.name.substr(0, 1));
    if (sameLetters(unit, letter) || sameLetters(unit, letter + "B") || sameLetters(unit, u.name)) shift = u.shift;
  }
  if (shift < 0)
    throw std::invalid_argument(quoted + ": unknown unit '" + std::string(unit) +
                                "' (use B, K, KB, KiB, M, MB, MiB, G, GB, GiB, T, TB or TiB; each K is 1024)");
  if (value > std::numeric_limits<uint64_t>::max() >> shift) throw std::invalid_argument(quoted + " is too large");
  return value << shift;
}

std::string byteSizeName(uint64_t bytes) {
  for (const Unit& u : kUnits)
    if (bytes >= (uint64_t{1} << u.shift) && bytes % (uint64_t{1} << u.shift) == 0)
      return fmt::format("{} {}", bytes >> u.shift, u.name);
  return fmt::format("{} B", bytes);
}

std::string approximateByteSize(double bytes) {
  for (const Unit& u : kUnits)
    if (const double scale = static_cast<double>(uint64_t{1} << u.shift); bytes >= scale)
      return fmt::format("{:.4g} {}", bytes / scale, u.name);
  return fmt::format("{:.4g} B", bytes);
}

}  // namespace ccforge::base
