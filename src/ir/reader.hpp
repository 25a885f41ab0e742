// Strict MSCCL-IR reader. Accepts both msccl-tools header generations and ncclize-style
// files; rejects what the runtime would silently misread (unknown elements or attributes,
// non-numeric or non-canonical numbers, duplicate attributes). Errors carry file:line:column.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "ir/model.hpp"
#include "ir/load_file.hpp"

namespace ccforge::ir {

// Text that XML allows and we can read, but that the runtime's hand-written parser does not
// accept (msccl-ir.md §1 "Lexical rules"). Reported by `verify` as violations, not read errors.
struct RuntimeParserIssue {
  TextLocation where;
  std::string message;
};

struct ReadResult {
  Algorithm algorithm;
  std::vector<RuntimeParserIssue> runtimeParserIssues;
};

// Throws InputError on malformed input. Files are streamed: memory stays proportional to the
// program, not to the text.
ReadResult readAlgorithm(const std::string& text, const std::string& sourceName);
ReadResult readAlgorithmFile(const std::filesystem::path& path, uint64_t maxBytes = kDefaultMaxInputBytes);

}  // namespace ccforge::ir
