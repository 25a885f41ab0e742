#include "verify/layouts.hpp"

namespace ccforge::verify {

std::vector<semantics::RankLayout> rankLayouts(const std::optional<semantics::Collective>& collective,
                                               semantics::CallForm form,
                                               const std::vector<std::array<int32_t, 3>>& bufferLengths) {
  std::vector<semantics::RankLayout> out;
  for (size_t r = 0; r < bufferLengths.size(); ++r) {
    const auto& len = bufferLengths[r];
    if (collective) {
      out.push_back(collective->layout(static_cast<int32_t>(r), form, len[2]));
      continue;
    }
    semantics::RankLayout l;
    if (form == semantics::CallForm::OutOfPlace) {
      l.regionSizes = {len[0], len[1], len[2]};
      l.views = {semantics::BufferView{0, 0, len[0]}, semantics::BufferView{1, 0, len[1]},
                 semantics::BufferView{2, 0, len[2]}};
    } else {
      l.regionSizes = {std::max(len[0], len[1]), len[2]};
      l.views = {semantics::BufferView{0, 0, len[0]}, semantics::BufferView{0, 0, len[1]},
                 semantics::BufferView{1, 0, len[2]}};
    }
    out.push_back(l);
  }
  return out;
}

std::vector<semantics::CallForm> callFormsOf(const ir::Algorithm& algo) {
  std::vector<semantics::CallForm> forms;
  if (algo.servesInPlace()) forms.push_back(semantics::CallForm::InPlace);
  if (algo.servesOutOfPlace()) forms.push_back(semantics::CallForm::OutOfPlace);
  return forms;
}

}  // namespace ccforge::verify
