// Memory layout of every rank for one call form.
#pragma once

#include <array>
#include <optional>
#include <vector>

#include "semantics/collective.hpp"

namespace ccforge::verify {

// Without a collective, input and output have the lengths the lint derived from the file, and
// an in-place call aliases them whole.
std::vector<semantics::RankLayout> rankLayouts(const std::optional<semantics::Collective>& collective,
                                               semantics::CallForm form,
                                               const std::vector<std::array<int32_t, 3>>& bufferLengths);

std::vector<semantics::CallForm> callFormsOf(const ir::Algorithm& algo);

}  // namespace ccforge::verify
