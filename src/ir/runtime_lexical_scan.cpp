#include "ir/runtime_lexical_scan.hpp"

namespace ccforge::ir {

std::vector<RuntimeParserIssue> checkTagForRuntimeParser(std::string_view tag, TextLocation where) {
  std::vector<RuntimeParserIssue> issues;
  // One issue per kind and tag is enough to point the user at it.
  bool reported[6] = {};
  TextLocation at = where;
  auto report = [&](int kind, const char* message) {
    if (!reported[kind]) issues.push_back({at, message});
    reported[kind] = true;
  };
  char quote = 0;
  bool spaceBefore = false;
  for (size_t i = 0; i < tag.size(); ++i, ++at.column) {
    char c = tag[i];
    char next = i + 1 < tag.size() ? tag[i + 1] : '>';
    if (c == '\n' || c == '\r') report(0, "line break inside a tag: the runtime needs each tag on one line");
    if (quote) {
      if (c == quote) quote = 0;
      else if (c == '&') report(1, "entity reference in an attribute value: the runtime does not decode it");
    } else {
      if (c == '"') quote = c;
      if (c == '\'') {
        quote = c;
        report(2, "single-quoted attribute value: the runtime accepts only double quotes");
      }
      if (c == '\t') report(3, "tab inside a tag: the runtime separates attributes by single spaces");
      if (c == ' ' && spaceBefore) report(4, "two spaces between attributes: the runtime separates them by one");
      if (c == '=' && (tag[i - 1] == ' ' || next == ' ')) report(5, "space around '=': the runtime expects name=\"value\"");
      spaceBefore = c == ' ' && next != '/' && next != '>';
    }
    if (c == '\n') {
      ++at.line;
      at.column = 0;
    }
  }
  return issues;
}

}  // namespace ccforge::ir
