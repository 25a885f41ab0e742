// nccl-tests-style result tables for `run` and `simulate` size sweeps (docs/run.md, docs/simulate.md):
// the -b/-e/-f sweep, and the table with out-of-place and in-place columns side by side, as text
// (nccl-tests' layout and its closing "# Avg bus bandwidth" line), JSON or CSV. Only formatting and
// arithmetic on numbers the caller measured or simulated; nothing here runs anything.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ccforge::driver {

inline constexpr size_t kMaxSweepSizes = 64;

// min, min*f, min*f^2, ... up to max (nccl-tests' -b/-e/-f). Throws std::invalid_argument on
// min > max, factor < 2 with min < max, or more than kMaxSweepSizes sizes.
std::vector<uint64_t> sweepSizes(uint64_t minBytes, uint64_t maxBytes, uint64_t factor);

// The same from -b and -e as given, each a size of base/byte_size.hpp (nccl-tests' 8, 1K, 128M,
// 1G and ccforge's 1KB, 1KiB alike); an empty one takes the other's value. The messages name
// the flag.
std::vector<uint64_t> sweepSizes(std::string_view minText, std::string_view maxText, uint64_t factor);

// nccl-tests' name of a ccforge data type ("f32" -> "float", "bf16" -> "bfloat16", ...).
std::string ncclTestsTypeName(std::string_view ccforgeName);

struct PerfCell {
  enum class Status : uint8_t { Measured, NotApplicable, Skipped };
  Status status = Status::NotApplicable;
  double timeUs = 0;
  double algbwGBps = 0;
  double busbwGBps = 0;
  std::optional<int64_t> wrong;  // nullopt: not checked (the simulator)
  std::string reason;            // Skipped: why the runtime would not select the file
  std::string program;           // Measured: the file that ran (JSON and CSV only)
};

struct PerfRow {
  uint64_t bytes = 0;
  int64_t count = 0;  // elements, nccl-tests' count column
  std::string type;   // nccl-tests spelling
  std::string redop;
  int32_t root = -1;  // -1 for collectives without a root
  PerfCell outOfPlace;
  PerfCell inPlace;
};

struct PerfTable {
  std::vector<std::string> preamble;  // "# ..." lines before the table (text only)
  std::vector<PerfRow> rows;
};

// The mean busbw over every measured cell, out-of-place and in-place (nccl-tests' closing line);
// nullopt when nothing was measured.
std::optional<double> averageBusBandwidth(const PerfTable& table);

std::string perfTableText(const PerfTable& table);
std::string perfTableJson(const PerfTable& table);
std::string perfTableCsv(const PerfTable& table);

}  // namespace ccforge::driver
