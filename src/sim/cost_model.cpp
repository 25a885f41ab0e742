#include "sim/cost_model.hpp"

namespace ccforge::sim {
namespace {

// Index by protocol in NCCL's order: LL, LL128, Simple.
size_t column(ir::Protocol p) {
  switch (p) {
    case ir::Protocol::LL: return 0;
    case ir::Protocol::LL128: return 1;
    case ir::Protocol::Simple: return 2;
  }
  return 2;
}

}  // namespace

std::optional<Arch> parseArch(std::string_view name) {
  for (Arch a : {Arch::Sm80, Arch::Sm90, Arch::Sm100, Arch::None})
    if (archName(a) == name) return a;
  return std::nullopt;
}

std::string_view archName(Arch a) {
  switch (a) {
    case Arch::Sm80: return "sm80";
    case Arch::Sm90: return "sm90";
    case Arch::Sm100: return "sm100";
    case Arch::None: return "none";
  }
  return "?";
}

double CostModel::baseLatencyUs() const {
  constexpr double kBase[3] = {6.6, 14, 8.4};
  return kBase[column(protocol_)];
}

double CostModel::hopLatencyUs(topo::LinkClass c) const {
  constexpr double kNvlink[3] = {0.6, 1.9, 3.4};
  constexpr double kPcie[3] = {1.0, 2.5, 5.7};
  constexpr double kNetwork[3] = {2.7, 4, 14};
  switch (c) {
    case topo::LinkClass::NVLink: return kNvlink[column(protocol_)];
    case topo::LinkClass::PCIe: return kPcie[column(protocol_)];
    case topo::LinkClass::Network: return kNetwork[column(protocol_)];
  }
  return 0;
}

double CostModel::efficiency() const {
  constexpr double kEfficiency[3] = {0.5, 0.92, 1.0};
  return kEfficiency[column(protocol_)];
}

std::optional<double> CostModel::perChannelGBps(topo::LinkClass c) const {
  if (arch_ == Arch::None) return std::nullopt;
  if (c != topo::LinkClass::NVLink) return 12.0;
  switch (arch_) {
    case Arch::Sm80: return 20.0;
    case Arch::Sm90: return 20.6;
    case Arch::Sm100: return 40.1;
    case Arch::None: break;
  }
  return std::nullopt;
}

}  // namespace ccforge::sim
