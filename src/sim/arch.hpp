// GPU generations as the performance model tells them apart.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "topology/topology.hpp"

namespace ccforge::sim {

// NCCL indexes its tables by generation (tuning.cc compCapIndex). None: the pure link model of
// the synthesizers (no per-channel cap, links at their spec bandwidth, no floor).
enum class Arch : uint8_t { Sm70, Sm80, Sm90, Sm100, None };
std::optional<Arch> parseArch(std::string_view name);
std::string_view archName(Arch a);
// The generation a topology states ("sm"): 70-79 Sm70, 80-89 Sm80, 90-99 Sm90, 100+ Sm100;
// Sm80 where the spec states none (AMD machines, generic graphs), as NCCL's tables need one.
Arch archOf(const topo::Topology& topology);
Arch archOfSm(int32_t sm);

}  // namespace ccforge::sim
