// Finds text in a start tag that the MSCCL runtime's hand-written XML parser would reject or
// misread (msccl-ir.md §1 "Lexical rules").
#pragma once

#include <string_view>
#include <vector>

#include "ir/reader.hpp"

namespace ccforge::ir {

// `tag` is the raw text of one start tag, which begins at `where`.
std::vector<RuntimeParserIssue> checkTagForRuntimeParser(std::string_view tag, TextLocation where);

}  // namespace ccforge::ir
