// Writes MSCCL-IR the way the runtime's hand-written parser needs it: no XML declaration,
// one tag per line, attributes on one line in double quotes, deterministic attribute order.
#pragma once

#include <ostream>
#include <string>

#include "ir/model.hpp"

namespace ccforge::ir {

void writeAlgorithm(std::ostream& out, const Algorithm& algo);
std::string toXml(const Algorithm& algo);

}  // namespace ccforge::ir
