// Byte sizes as every ccforge option reads and every report writes them. One grammar: a decimal
// integer and an optional unit, B, K/KB/KiB, M/MB/MiB, G/GB/GiB or T/TB/TiB, in any case, every
// K a 1024 as in nccl-tests' own -b/-e ("1K", "64M"), so that "1KB" means the same to `simulate`,
// `run`, `tune`, `select` and `verify`.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace ccforge::base {

// Throws std::invalid_argument naming the text: no leading digit, an unknown unit, a value over
// 2^64 - 1. Zero is a size; what range a size must lie in is the caller's rule.
uint64_t parseByteSize(std::string_view text);

// Exact: "64 MiB", "3 GiB", "1536 B" (the largest unit that divides the size).
std::string byteSizeName(uint64_t bytes);

// Rounded to four significant digits in the largest unit not above it: "1.5 GiB", "3.052 KiB".
std::string approximateByteSize(double bytes);

}  // namespace ccforge::base
