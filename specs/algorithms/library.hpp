// The algorithm library: every algorithm of the MSCCLang paper and of the msccl-tools
// examples as a short DSL program, parameterised, under a stable name (`ccforge list`).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dsl/program.hpp"
#include "semantics/runtime_profile.hpp"

namespace ccforge::algorithms {

struct Parameter {
  std::string name;
  int64_t defaultValue = 0;
  std::string help;
  int64_t min = 1;
  int64_t max = 4096;
  bool chosen = false;  // the default 0 means: chosen from the other parameters (LibraryEntry::chooseDefaults)
};

using Arguments = std::map<std::string, int64_t, std::less<>>;  // every parameter, defaults applied
using RingOrders = std::vector<std::vector<int32_t>>;           // per channel, the ranks in ring order

struct LibraryEntry {
  std::string name;
  std::string summary;
  std::vector<Parameter> parameters;
  ir::Protocol defaultProtocol = ir::Protocol::Simple;
  std::string defaultTarget = "msccl-executor";  // custom collectives need msccl-legacy
  // Throws std::invalid_argument for parameters the algorithm cannot use.
  std::function<dsl::Program(const Arguments&, ir::Protocol)> build;
  // The steps the busiest thread block gets once compiled, predicted from the parameters
  // without building the program (empty: no prediction). A prediction over the runtime's
  // steps per thread block is refused up front (requireFits) instead of failing the compile late.
  std::function<int64_t(const Arguments&)> busiestThreadBlockSteps = nullptr;
  // Replaces the 0 of every `chosen` parameter with its value for the other arguments (empty:
  // the entry has no chosen parameter). resolveArguments applies it.
  std::function<void(Arguments&)> chooseDefaults = nullptr;
  // The peers every rank sends to, times the replicas (empty: no prediction). Each send peer
  // needs a thread block of its own per replica, and all of a rank's must be resident: more than
  // the runtime allows is refused up front (requireFits).
  std::function<int64_t(const Arguments&)> sendPeersPerRank = nullptr;
};

const std::vector<LibraryEntry>& library();
const LibraryEntry* findAlgorithm(std::string_view name);
// "key=value" settings over the entry's defaults; throws std::invalid_argument for an unknown
// key, a malformed value or a repeated key.
Arguments resolveArguments(const LibraryEntry& entry, const std::vector<std::string>& settings);

// Throws LimitExceeded (an std::invalid_argument: exit 1) when the entry's predicted steps per
// thread block or thread blocks per rank exceed `profile`'s, naming the limit and the settings
// that would fit.
void requireFits(const LibraryEntry& entry, const Arguments& arguments, const semantics::RuntimeProfile& profile);

struct Instance {
  const LibraryEntry* entry = nullptr;
  Arguments arguments;
  ir::Protocol protocol = ir::Protocol::Simple;
  dsl::Program program;
};
// The program NAME key=value... stands for; `protocol` overrides the algorithm's default.
// Throws std::invalid_argument (unknown name or parameter, parameters the algorithm rejects).
Instance instantiate(std::string_view name, const std::vector<std::string>& settings,
                     std::optional<ir::Protocol> protocol = std::nullopt);
// A ring algorithm (ring-allreduce, ring-allgather, ring-reducescatter) on the given rings, one
// per channel (the rings NCCL would build on a machine, sim/nccl_rings.hpp). Throws
// std::invalid_argument for another algorithm, a ring that is not a permutation of the ranks,
// or a "channels" or "boxes" setting (the rings say both).
Instance instantiateOnRings(std::string_view name, const RingOrders& rings, const std::vector<std::string>& settings,
                            std::optional<ir::Protocol> protocol = std::nullopt);

}  // namespace ccforge::algorithms
