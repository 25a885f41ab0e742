#include "sim/sizes.hpp"

#include <stdexcept>
#include <string>

#include "base/byte_size.hpp"

namespace ccforge::sim {
namespace {

constexpr uint64_t kLargestSize = uint64_t{1} << 40;

uint64_t parseSize(std::string_view text) {
  const uint64_t bytes = base::parseByteSize(text);
  if (bytes == 0) throw std::invalid_argument("size '" + std::string(text) + "' is zero");
  if (bytes > kLargestSize) throw std::invalid_argument("size '" + std::string(text) + "' is above 1 TiB");
  return bytes;
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

}  // namespace ccforge::sim
