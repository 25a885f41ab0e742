#include "semantics/ir/runtime_lexical_scan.hpp"

namespace ccforge::ir {

std::vector<RuntimeParserIssue> scanForRuntimeParser(std::string_view text, const LineIndex& lines, size_t limit) {
  std::vector<RuntimeParserIssue> issues;
  auto report = [&](size_t offset, std::string message) {
    if (issues.size() < limit) issues.push_back({lines.at(offset), std::move(message)});
  };
  size_t i = 0;
  while (i < text.size() && issues.size() < limit) {
    if (text[i] != '<') {
      ++i;
      continue;
    }
    if (text.substr(i, 4) == "<!--") {
      size_t end = text.find("-->", i + 4);
      i = end == std::string_view::npos ? text.size() : end + 3;
      continue;
    }
    if (text.substr(i, 5) == "<?xml") report(i, "XML declaration: the runtime's parser fails on it");
    // Walk one tag, tracking quotes, and check the runtime's lexical rules inside it.
    ++i;
    char quote = 0;
    bool spaceBefore = false;
    for (; i < text.size(); ++i) {
      char c = text[i];
      if (quote) {
        if (c == quote) quote = 0;
        else if (c == '&') report(i, "entity reference in an attribute value: the runtime does not decode it");
        else if (c == '\n' || c == '\r') report(i, "line break inside a tag: the runtime needs each tag on one line");
        continue;
      }
      if (c == '>') break;
      if (c == '"') quote = c;
      if (c == '\'') {
        quote = c;
        report(i, "single-quoted attribute value: the runtime accepts only double quotes");
      }
      if (c == '\n' || c == '\r') report(i, "line break inside a tag: the runtime needs each tag on one line");
      if (c == '\t') report(i, "tab inside a tag: the runtime separates attributes by single spaces");
      if (c == ' ' && spaceBefore) report(i, "two spaces between attributes: the runtime separates them by one");
      char next = i + 1 < text.size() ? text[i + 1] : '>';
      if (c == '=' && (text[i - 1] == ' ' || next == ' '))
        report(i, "space around '=': the runtime expects name=\"value\"");
      spaceBefore = c == ' ' && next != '/' && next != '>';
    }
    ++i;
  }
  return issues;
}

}  // namespace ccforge::ir
