// Message sizes as nccl-tests writes them: "1KB..1GB" (doubling), "8MB", "1KB,64KB,1MB".
// K, M, G are powers of 1024; the B is optional.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ccforge::sim {

inline constexpr size_t kMaxSizes = 64;

// Throws std::invalid_argument with a user-facing message on a malformed list, a size of
// zero, a range that runs backwards or more than kMaxSizes sizes.
std::vector<uint64_t> parseSizes(std::string_view text);

// "1 KiB", "64 MiB", "3000 B".
std::string sizeName(uint64_t bytes);

}  // namespace ccforge::sim
