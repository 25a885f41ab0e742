// The NCCL environment variables that change NCCL's choice, as NCCL parses them (NVIDIA/nccl
// src/graph/tuning.cc l.36-136 and l.440-541, src/graph/connect.cc l.328-359 and l.494-506,
// src/transport/nvls.cc l.248-281, src/init.cc l.985-999): NCCL_ALGO, NCCL_PROTO,
// NCCL_MIN_NCHANNELS, NCCL_MAX_NCHANNELS, NCCL_NVLS_ENABLE, NCCL_LAUNCH_MODE.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "semantics/collective.hpp"
#include "sim/nccl_tables.hpp"

namespace ccforge::sim {

struct NcclEnvironment {
  // Per function (Broadcast, Reduce, AllGather, ReduceScatter, AllReduce: tuning.cc's order),
  // which algorithms and protocols are on; nullopt where the variable is unset.
  std::optional<std::array<std::array<bool, nccl::kAlgorithms>, 5>> algorithms;
  std::optional<std::array<std::array<bool, 3>, 5>> protocols;
  std::optional<int32_t> minChannels;
  std::optional<int32_t> maxChannels;
  std::optional<bool> nvls;  // NCCL_NVLS_ENABLE 0 / 1 (2, auto: unset)
  // NCCL_LAUNCH_MODE=GROUP: one cooperative launch across the GPUs a thread drives, behind
  // NCCL's own stream, so the host's cost adds to the call (the default up to NCCL 2.8,
  // src/init.cc l.384 at 2.8.4); PARALLEL (the default since 2.9) leaves it to the parameters.
  bool groupLaunch = false;
  std::vector<std::string> settings;  // "NAME=VALUE" as given, for reports

  bool algorithmOn(semantics::CollectiveType c, nccl::Algorithm a) const;
  // nullopt: unset (LL128's default then depends on the machine).
  std::optional<bool> protocolOn(semantics::CollectiveType c, size_t protocol) const;
};

// Reads "NAME=VALUE" settings. Throws std::invalid_argument for a variable the model does not
// take (naming the ones it does), a malformed value, an unknown algorithm, protocol or function.
NcclEnvironment parseNcclEnvironment(const std::vector<std::string>& settings);

}  // namespace ccforge::sim
