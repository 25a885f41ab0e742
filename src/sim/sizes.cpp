#include "sim/sizes.hpp"

#include <cctype>
#include <limits>
#include <stdexcept>

namespace ccforge::sim {
namespace {

uint64_t parseSize(std::string_view text) {
  std::string_view all = text;
  uint64_t value = 0;
  size_t i = 0;
  for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i) {
    if (value > (std::numeric_limits<uint64_t>::max() - 9) / 10) throw std::invalid_argument("size '" + std::string(all) + "' is too large");
    value = value * 10 + static_cast<uint64_t>(text[i] - '0');
  }
  if (i == 0) throw std::invalid_argument("size '" + std::string(all) + "' does not start with a number");
  text.remove_prefix(i);
  int shift = 0;
  if (!text.empty()) {
    switch (std::toupper(static_cast<unsigned char>(text.front()))) {
      case 'K': shift = 10; break;
      case 'M': shift = 20; break;
      case 'G': shift = 30; break;
      case 'B': break;
      default: throw std::invalid_argument("size '" + std::string(all) + "': unknown unit (use B, KB, MB or GB)");
    }
    if (shift != 0) text.remove_prefix(1);
    if (!text.empty() && std::toupper(static_cast<unsigned char>(text.front())) == 'B') text.remove_prefix(1);
    if (!text.empty()) throw std::invalid_argument("size '" + std::string(all) + "': unexpected text after the unit");
  }
  if (value == 0) throw std::invalid_argument("size '" + std::string(all) + "' is zero");
  if (value > (uint64_t{1} << 40) >> shift) throw std::invalid_argument("size '" + std::string(all) + "' is above 1 TiB");
  return value << shift;
}

}  // namespace

std::vector<uint64_t> parseSizes(std::string_view text) {
  std::vector<uint64_t> sizes;
  while (!text.empty()) {
    size_t comma = text.find(',');
    std::string_view item = text.substr(0, comma);
    if (auto dots = item.find(".."); dots != std::string_view::npos) {
      uint64_t from = parseSize(item.substr(0, dots)), to = parseSize(item.substr(dots + 2));
      if (to < from) throw std::invalid_argument("size range '" + std::string(item) + "' runs backwards");
      for (uint64_t s = from; s <= to; s *= 2) {
        sizes.push_back(s);
        if (sizes.size() > kMaxSizes) break;
      }
    } else {
      sizes.push_back(parseSize(item));
    }
    if (sizes.size() > kMaxSizes) throw std::invalid_argument("at most " + std::to_string(kMaxSizes) + " sizes");
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  if (sizes.empty()) throw std::invalid_argument("no sizes given");
  return sizes;
}

std::string sizeName(uint64_t bytes) {
  if (bytes >= (uint64_t{1} << 30) && bytes % (uint64_t{1} << 30) == 0) return std::to_string(bytes >> 30) + " GiB";
  if (bytes >= (uint64_t{1} << 20) && bytes % (uint64_t{1} << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
  if (bytes >= (uint64_t{1} << 10) && bytes % (uint64_t{1} << 10) == 0) return std::to_string(bytes >> 10) + " KiB";
  return std::to_string(bytes) + " B";
}

}  // namespace ccforge::sim
