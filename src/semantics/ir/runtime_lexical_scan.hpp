// Finds text the MSCCL runtime's hand-written XML parser would reject or misread.
#pragma once

#include <string_view>
#include <vector>

#include "semantics/ir/reader.hpp"
#include "semantics/ir/text_position.hpp"

namespace ccforge::ir {

// Reports at most `limit` issues (a broken generator repeats the same one everywhere).
std::vector<RuntimeParserIssue> scanForRuntimeParser(std::string_view text, const LineIndex& lines,
                                                     size_t limit = 20);

}  // namespace ccforge::ir
