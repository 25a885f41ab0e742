// Finds text that the MSCCL runtime's hand-written XML lexer (mscclXmlGetNode, GetToken, GetValue
// and SkipComment in msccl_parser.cc; the same code in microsoft/msccl's xml.cc) rejects or
// misreads although XML allows it (docs/msccl-ir.md, "The runtime's lexer"). The reader feeds it
// the raw text of every markup event; what it finds, `verify` reports as format.runtime-parser.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/model.hpp"

namespace ccforge::ir {

// The lexer's buffer sizes, as each runtime builds them (semantics/runtime_profile.cpp).
struct RuntimeLexicalLimits {
  int32_t maxAttributeSlots;  // MAX_ATTR_COUNT: slots kept per tag; every space in a tag opens one
  int32_t maxValueBytes;      // MAX_STR_LEN: longest attribute value its buffer holds with the terminator
  int32_t maxTokenBytes;      // longest element name, or "!--" plus a comment's first word
};

struct RuntimeParserIssue {
  base::TextLocation where;
  std::string message;
  bool warning = false;  // the runtime reads it as meant, in a way worth knowing (a number's spelling)
};

class RuntimeLexicalScan {
 public:
  // Without limits, the checks that depend on the runtime's buffer sizes are skipped.
  explicit RuntimeLexicalScan(std::optional<RuntimeLexicalLimits> limits) : limits_(limits) {}

  // The first bytes of the file.
  void documentStart(std::string_view bytes);
  void declaration(base::TextLocation where);
  // `raw` is the exact text of the event, which begins at `where`.
  void startTag(std::string_view raw, base::TextLocation where);
  void endTag(std::string_view raw, base::TextLocation where);
  void textBetweenTags(std::string_view raw, base::TextLocation where);
  // `data` is the comment's text between "<!--" and "-->".
  void comment(std::string_view data, base::TextLocation where);

  // Something the runtime reads in a way worth knowing, reported as a warning (reader.cpp): a
  // number strtol reads whole but that is not canonical decimal, an element it skips.
  void readAsWarning(base::TextLocation where, std::string message);

  std::vector<RuntimeParserIssue> take() { return std::move(issues_); }

 private:
  void report(base::TextLocation where, std::string message);
  void attributeSlotsAndValues(std::string_view tag, base::TextLocation where);

  std::optional<RuntimeLexicalLimits> limits_;
  std::vector<RuntimeParserIssue> issues_;
  bool reportedText_ = false;  // a file indented with tabs needs one finding, not one per line
};

}  // namespace ccforge::ir
