// The legacy runtime's MSCCL_CONFIG for one tuned collective (microsoft/msccl; docs/tune.md "The
// legacy runtime"): which windows it loads, each chosen program as that runtime reads it (its
// spelling of the collective, the config's window in the header), the <msccl_algos> file, and
// what the legacy selector makes of them for the calls users make.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "ir/model.hpp"
#include "tune/tuning.hpp"

namespace ccforge::tune {

struct LegacyLoad {
  size_t window = 0;      // into CollectiveTuning::windows
  ir::Algorithm program;  // as the legacy runtime reads it
};

struct LegacyConfig {
  std::vector<LegacyLoad> loads;  // in the config's order: the largest predicted time saved first
  std::vector<std::string> left;  // windows left out, each "FILE (why)"
};

// At most `limit` loads (MSCCL_MAX_NUM_ALGOS). In-place alltoall windows are left out (the legacy
// runtime refuses in-place alltoall), and so is a window whose program `refusal` returns a
// reason for (tune: the legacy profile's verifier).
LegacyConfig legacyConfig(const CollectiveTuning& t, size_t limit,
                          const std::function<std::string(const ir::Algorithm&)>& refusal);

// The <msccl_algos> file: a <load> per program, its path under `directory` (absolute), maxbytes
// exclusive as the legacy runtime compares it.
std::string legacyConfigXml(const CollectiveTuning& t, const LegacyConfig& config, const std::string& directory);

struct LegacyCheck {
  uint64_t callsInWindows = 0;         // power-of-two calls of 1 KiB..4 GiB inside a loaded window
  uint64_t callsServed = 0;            // of those, the ones the legacy selector gives to that window's file
  std::vector<std::string> misrouted;  // calls it gives to another file
};

// Every call the legacy selector sees (each element size, power-of-two counts), in config order.
LegacyCheck checkLegacyConfig(const CollectiveTuning& t, const LegacyConfig& config);

}  // namespace ccforge::tune
