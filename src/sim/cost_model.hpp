// What one transfer of a program's protocol costs on a kind of route (msccl-ir.md §3), from the
// machine's model parameters (sim/model_parameters.hpp). The protocol's own parameters (tile,
// slots) are the runtime's: semantics/protocol.hpp.
#pragma once

#include <optional>

#include "ir/model.hpp"
#include "sim/model_parameters.hpp"
#include "topology/topology.hpp"

namespace ccforge::sim {

class CostModel {
 public:
  CostModel(ir::Protocol protocol, ModelParameters parameters) : protocol_(protocol), parameters_(parameters) {}

  // Paid once per collective call (NCCL's ring base latency).
  double baseLatencyUs() const { return parameters_.baseLatencyUs(protocol_); }
  // Paid by every transfer on a route of this class, on top of the links' alphas.
  double hopLatencyUs(topo::LinkClass c) const { return parameters_.hopLatencyUs(protocol_, c); }
  // Fraction of the wire that carries payload (LL 0.5, LL128 0.92, Simple 1).
  double efficiency() const {
    return protocolEfficiency(protocol_) * (protocol_ == ir::Protocol::LL128 ? parameters_.ll128BandwidthScale : 1);
  }
  // The most one thread block (one connection) moves, in GB/s of payload; nullopt: no cap.
  std::optional<double> perChannelGBps(topo::LinkClass c) const { return parameters_.perChannelGBps(c); }
  ir::Protocol protocol() const { return protocol_; }
  const ModelParameters& parameters() const { return parameters_; }

 private:
  ir::Protocol protocol_;
  ModelParameters parameters_;
};

}  // namespace ccforge::sim
