// NCCL's cost constants (msccl-ir.md §3): what one transfer of a given protocol costs on a given
// kind of link. The protocol's own parameters (tile, slots) are the runtime's: semantics/protocol.hpp.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "ir/model.hpp"
#include "topology/topology.hpp"

namespace ccforge::sim {

// GPU generation, for NCCL's per-channel bandwidth; None: no per-channel cap.
enum class Arch : uint8_t { Sm80, Sm90, Sm100, None };
std::optional<Arch> parseArch(std::string_view name);
std::string_view archName(Arch a);

class CostModel {
 public:
  CostModel(ir::Protocol protocol, Arch arch) : protocol_(protocol), arch_(arch) {}

  // Paid once per collective call (NCCL's ring base latency).
  double baseLatencyUs() const;
  // Paid by every transfer on a route of this class, on top of the links' alphas.
  double hopLatencyUs(topo::LinkClass c) const;
  // Fraction of a link's bandwidth that carries payload (LL 0.5, LL128 0.92, Simple 1).
  double efficiency() const;
  // The most one thread block (one connection) moves, in GB/s of payload; nullopt: no cap.
  std::optional<double> perChannelGBps(topo::LinkClass c) const;

 private:
  ir::Protocol protocol_;
  Arch arch_;
};

}  // namespace ccforge::sim
