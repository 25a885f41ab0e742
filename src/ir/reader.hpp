// Strict MSCCL-IR reader. Accepts both msccl-tools header generations and ncclize-style
// files; rejects what the runtime would silently misread (unknown elements or attributes,
// non-numeric or non-canonical numbers, duplicate attributes). Errors carry file:line:column.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "base/load_file.hpp"
#include "ir/model.hpp"
#include "ir/runtime_lexical_scan.hpp"

namespace ccforge::ir {

struct ReadResult {
  Algorithm algorithm;
  // Text that XML allows and we can read, but that the runtime's hand-written parser does not
  // accept (runtime_lexical_scan.hpp). Reported by `verify` as violations, not read errors.
  std::vector<RuntimeParserIssue> runtimeParserIssues;
};

// Throws InputError on malformed input. Files are streamed: memory stays proportional to the
// program, not to the text. `lexicalLimits` are the runtime's lexer buffers to check the text
// against (from the runtime profile); without them only the rules that hold for any size are.
ReadResult readAlgorithm(const std::string& text, const std::string& sourceName,
                         std::optional<RuntimeLexicalLimits> lexicalLimits = std::nullopt);
ReadResult readAlgorithmFile(const std::filesystem::path& path, uint64_t maxBytes = base::kDefaultMaxInputBytes,
                             std::optional<RuntimeLexicalLimits> lexicalLimits = std::nullopt);

}  // namespace ccforge::ir
