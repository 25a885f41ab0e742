#include "codegen/instruction_dag.hpp"

namespace ccforge::codegen {

void InstructionDag::buildAdjacency() {
  const size_t n = instrs.size();
  predStart_.assign(n + 1, 0);
  succStart_.assign(n + 1, 0);
  for (const Edge& e : edges) {
    ++predStart_[static_cast<size_t>(e.to) + 1];
    ++succStart_[static_cast<size_t>(e.from) + 1];
  }
  for (size_t i = 0; i < n; ++i) {
    predStart_[i + 1] += predStart_[i];
    succStart_[i + 1] += succStart_[i];
  }
  pred_.resize(edges.size());
  succ_.resize(edges.size());
  std::vector<int32_t> predFill(predStart_.begin(), predStart_.end() - 1);
  std::vector<int32_t> succFill(succStart_.begin(), succStart_.end() - 1);
  for (const Edge& e : edges) {
    pred_[static_cast<size_t>(predFill[static_cast<size_t>(e.to)]++)] = e.from;
    succ_[static_cast<size_t>(succFill[static_cast<size_t>(e.from)]++)] = e.to;
  }
}

std::span<const int32_t> InstructionDag::preds(int32_t i) const {
  const auto b = static_cast<size_t>(predStart_[static_cast<size_t>(i)]);
  const auto e = static_cast<size_t>(predStart_[static_cast<size_t>(i) + 1]);
  return {pred_.data() + b, e - b};
}

std::span<const int32_t> InstructionDag::succs(int32_t i) const {
  const auto b = static_cast<size_t>(succStart_[static_cast<size_t>(i)]);
  const auto e = static_cast<size_t>(succStart_[static_cast<size_t>(i) + 1]);
  return {succ_.data() + b, e - b};
}

}  // namespace ccforge::codegen
