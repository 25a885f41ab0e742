// Reads a whole input file into memory, inflating gzip transparently, with a cap on the
// (inflated) size so that a gzip bomb or a device file cannot exhaust memory.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

namespace ccforge {

inline constexpr uint64_t kDefaultMaxInputBytes = uint64_t{1} << 30;  // 1 GiB

// Throws InputError (no location) when the file is missing, not a regular file,
// unreadable, corrupt gzip, or larger than maxBytes once inflated.
std::string loadFile(const std::filesystem::path& path, uint64_t maxBytes = kDefaultMaxInputBytes);

}  // namespace ccforge
