#include "ir/runtime_lexical_scan.hpp"

#include <fmt/format.h>

namespace ccforge::ir {
namespace {

// A file that repeats one mistake on every line needs a few findings to be understood.
constexpr size_t kMaxIssues = 20;

// The lexer ends a name at these (mscclXmlGetToken); '=' starts a value.
bool endsToken(char c) { return c == ' ' || c == '>' || c == '/' || c == '\n' || c == '\r'; }

base::TextLocation advance(base::TextLocation at, std::string_view text) {
  for (char c : text) {
    if (c == '\n') {
      ++at.line;
      at.column = 1;
    } else {
      ++at.column;
    }
  }
  return at;
}

}  // namespace

void RuntimeLexicalScan::report(base::TextLocation where, std::string message) {
  if (issues_.size() < kMaxIssues) issues_.push_back({where, std::move(message)});
}

void RuntimeLexicalScan::readAsWarning(base::TextLocation where, std::string message) {
  if (issues_.size() < kMaxIssues) issues_.push_back({where, std::move(message), true});
}

void RuntimeLexicalScan::documentStart(std::string_view bytes) {
  if (bytes.starts_with("\xEF\xBB\xBF"))
    report({1, 1},
           "UTF-8 byte-order mark: the runtime's parser needs '<' as the first byte that is not a space or "
           "line break and fails (\"expecting '<'\")");
}

void RuntimeLexicalScan::declaration(base::TextLocation where) {
  report(where, "XML declaration: the runtime's parser fails on it");
}

void RuntimeLexicalScan::startTag(std::string_view tag, base::TextLocation where) {
  // One issue per kind and tag is enough to point the user at it.
  bool reported[5] = {};
  base::TextLocation at = where;
  auto once = [&](int kind, const char* message) {
    if (!reported[kind]) report(at, message);
    reported[kind] = true;
  };
  char quote = 0;
  for (size_t i = 0; i < tag.size(); ++i, ++at.column) {
    char c = tag[i];
    char next = i + 1 < tag.size() ? tag[i + 1] : '>';
    if (c == '\n' || c == '\r') once(0, "line break inside a tag: the runtime needs each tag on one line");
    if (quote) {
      if (c == quote)
        quote = 0;
      else if (c == '&')
        once(1, "entity reference in an attribute value: the runtime does not decode it");
    } else {
      if (c == '"') quote = c;
      if (c == '\'') {
        quote = c;
        once(2, "single-quoted attribute value: the runtime accepts only double quotes");
      }
      if (c == '\t') once(3, "tab inside a tag: the runtime separates attributes by spaces");
      if (c == '=' && (tag[i - 1] == ' ' || next == ' '))
        once(4, "space around '=': the runtime expects name=\"value\"");
    }
    if (c == '\n') {
      ++at.line;
      at.column = 0;
    }
  }
  // Slots and value lengths follow the lexer's reading of a tag it can read at all.
  if (limits_ && !reported[0] && !reported[2] && !reported[3] && !reported[4]) attributeSlotsAndValues(tag, where);
}

// mscclXmlGetNode reads one token per space while the character after a value is a space, so
// every space in the tag opens an attribute slot (an extra one an empty slot); slots past
// MAX_ATTR_COUNT are read into one spare entry and dropped. mscclXmlGetValue copies a value
// and its closing quote without a bounds check into MAX_STR_LEN + 1 bytes.
void RuntimeLexicalScan::attributeSlotsAndValues(std::string_view tag, base::TextLocation where) {
  size_t i = 1;
  while (i < tag.size() && !endsToken(tag[i])) ++i;
  int32_t spaces = 0;
  while (i < tag.size() && tag[i] != '/' && tag[i] != '>') {
    if (tag[i] == ' ') {
      ++spaces;
      ++i;
      continue;
    }
    const size_t nameStart = i;
    const size_t equals = tag.find('=', i);
    const size_t close = equals == std::string_view::npos ? equals : tag.find('"', equals + 2);
    if (close == std::string_view::npos) return;
    const std::string_view name = tag.substr(nameStart, equals - nameStart);
    const size_t valueBytes = close - equals - 2;
    const base::TextLocation at{where.line, where.column + static_cast<uint32_t>(nameStart)};
    const int32_t slot = spaces - 1;
    if (slot >= limits_->maxAttributeSlots)
      report(at, fmt::format("attribute '{}' is in attribute slot {} of its tag (every space in a tag opens one): "
                             "the runtime's parser keeps {} (MAX_ATTR_COUNT) and drops it, so the runtime reads the "
                             "tag without it",
                             name, slot + 1, limits_->maxAttributeSlots));
    if (valueBytes > static_cast<size_t>(limits_->maxValueBytes))
      report(at, fmt::format("attribute '{}' has a {}-byte value: the runtime's parser copies values without a bounds "
                             "check into {} bytes ({} and the terminator, MAX_STR_LEN), so it writes past the buffer",
                             name, valueBytes, limits_->maxValueBytes + 1, limits_->maxValueBytes));
    i = close + 1;
  }
}

void RuntimeLexicalScan::endTag(std::string_view tag, base::TextLocation where) {
  size_t i = 2;  // after "</"
  while (i < tag.size() && tag[i] != '>' && tag[i] != ' ' && tag[i] != '\t' && tag[i] != '\n' && tag[i] != '\r') ++i;
  if (i < tag.size() && tag[i] != '>')
    report(advance(where, tag.substr(0, i)),
           fmt::format("whitespace before '>' in the end tag \"{}\": the runtime's parser needs '>' right after the "
                       "name and fails",
                       tag));
}

void RuntimeLexicalScan::textBetweenTags(std::string_view raw, base::TextLocation where) {
  const size_t bad = raw.find_first_not_of(" \n\r");
  if (reportedText_ || bad == std::string_view::npos) return;
  reportedText_ = true;
  const char c = raw[bad];
  const std::string what = c == '\t'  ? "a tab"
                           : c == '&' ? "a character or entity reference"
                                      : fmt::format("byte 0x{:02x}", static_cast<unsigned char>(c));
  report(advance(where, raw.substr(0, bad)),
         what +
             " between tags: the runtime's parser skips only spaces and line breaks there and fails (\"expecting "
             "'<'\"); this is the first of its kind in the file");
}

// The lexer reads "<!--" and the comment's first word as an element name (mscclXmlGetToken
// without a value buffer) before it recognises the comment, so that word may not hold '=' and
// must fit the name buffer; the word runs on into the closing "--" when the comment has no space.
void RuntimeLexicalScan::comment(std::string_view data, base::TextLocation where) {
  constexpr std::string_view kOpen = "!--", kClose = "-->";
  for (size_t k = 0; k < data.size() + kClose.size(); ++k) {
    const char c = k < data.size() ? data[k] : kClose[k - data.size()];
    const size_t index = kOpen.size() + k;
    if (c == '=') {
      report(where,
             "comment whose first word contains '=': the runtime's parser reads that word like an element name "
             "and fails on '=' (put a space after \"<!--\")");
      return;
    }
    if (limits_ && index > static_cast<size_t>(limits_->maxTokenBytes)) {
      report(where,
             fmt::format("comment whose first word (up to a space, or on into the closing \"--\") is {} bytes "
                         "or longer: the runtime's parser reads \"!--\" and that word as one element name, which "
                         "it takes up to {} bytes long, and fails (put a space after \"<!--\")",
                         limits_->maxTokenBytes - kOpen.size() + 1, limits_->maxTokenBytes));
      return;
    }
    if (endsToken(c)) return;
  }
}

}  // namespace ccforge::ir
