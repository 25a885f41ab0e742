#include "sim/arch.hpp"

namespace ccforge::sim {

std::optional<Arch> parseArch(std::string_view name) {
  for (Arch a : {Arch::Sm70, Arch::Sm80, Arch::Sm90, Arch::Sm100, Arch::None})
    if (archName(a) == name) return a;
  return std::nullopt;
}

std::string_view archName(Arch a) {
  switch (a) {
    case Arch::Sm70: return "sm70";
    case Arch::Sm80: return "sm80";
    case Arch::Sm90: return "sm90";
    case Arch::Sm100: return "sm100";
    case Arch::None: return "none";
  }
  return "?";
}

Arch archOfSm(int32_t sm) {
  if (sm >= 100) return Arch::Sm100;
  if (sm >= 90) return Arch::Sm90;
  if (sm >= 70 && sm < 80) return Arch::Sm70;
  return Arch::Sm80;
}

Arch archOf(const topo::Topology& t) { return archOfSm(t.sm); }

}  // namespace ccforge::sim
