// Writes MSCCL-IR the way the runtime's hand-written parser needs it: no XML declaration,
// one tag per line, attributes on one line in double quotes, deterministic attribute order.
#pragma once

#include <functional>
#include <ostream>
#include <string>
#include <string_view>

#include "ir/model.hpp"

namespace ccforge::ir {

// The file in pieces (the header, then one per gpu), so that a program of millions of steps is
// written without holding its whole text.
void writeXml(const Algorithm& algo, const std::function<void(std::string_view)>& sink);
void writeAlgorithm(std::ostream& out, const Algorithm& algo);
std::string toXml(const Algorithm& algo);

}  // namespace ccforge::ir
