// The one format of every diagnostic ccforge prints about a place in a file, the one compilers
// use, so that editors, vim's errorformat and CI problem matchers pick it up:
//   FILE:LINE:COLUMN: error|warning|note: MESSAGE [RULE]
// A diagnostic about a file as a whole (unreadable, too large, a finding that no element carries)
// is placed at 1:1. The message is kept on one line; the rule id, when there is one, ends it.
#pragma once

#include <string>
#include <string_view>

#include "base/text_position.hpp"

namespace ccforge::base {

enum class DiagnosticLevel { Error, Warning, Note };

std::string_view diagnosticLevelName(DiagnosticLevel level);

std::string formatDiagnostic(std::string_view file, TextLocation where, DiagnosticLevel level, std::string_view message,
                             std::string_view rule = {});

}  // namespace ccforge::base
