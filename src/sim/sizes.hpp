// Lists of message sizes: "1KB..1GB" (doubling), "8MB", "1KB,64KB,1MB"; each size in the one
// grammar of base/byte_size.hpp.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace ccforge::sim {

inline constexpr size_t kMaxSizes = 64;

// Throws std::invalid_argument with a user-facing message on a malformed list, a size of
// zero or above 1 TiB, a range that runs backwards or more than kMaxSizes sizes.
std::vector<uint64_t> parseSizes(std::string_view text);

}  // namespace ccforge::sim
