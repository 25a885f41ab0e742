// Where each value of a JSON text starts, by JSON pointer (RFC 6901), so that errors found
// after parsing can name file:line:column. Also finds duplicate object keys, which JSON
// parsers silently collapse.
#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "base/text_position.hpp"

namespace ccforge::base {

class JsonLocations {
 public:
  static constexpr int kMaxDepth = 256;
  // `text` must already be known to be well-formed JSON and must outlive this object.
  // Throws std::length_error when values nest deeper than kMaxDepth.
  explicit JsonLocations(std::string_view text);

  // The value at `pointer`, or its nearest ancestor that exists.
  TextLocation at(std::string_view pointer) const;
  // The source text of the scalar at `pointer` (numbers keep their exact digits).
  std::optional<std::string_view> rawScalar(std::string_view pointer) const;
  // The first duplicate key found: its pointer.
  const std::optional<std::string>& duplicateKey() const { return duplicate_; }

  static std::string child(std::string_view pointer, std::string_view key);
  static std::string child(std::string_view pointer, size_t index);

 private:
  size_t value(size_t pos, const std::string& pointer, int depth);
  size_t string(size_t pos, std::string* decoded) const;
  size_t skipSpace(size_t pos) const;

  std::string_view text_;
  LineIndex lines_;
  struct Span {
    size_t begin;
    size_t end;
  };
  std::map<std::string, Span, std::less<>> spans_;
  std::optional<std::string> duplicate_;
};

// A JSON document read with the place of every value. Malformed JSON, nesting deeper than
// JsonLocations::kMaxDepth and duplicate keys throw InputError located in `source`; `text` must
// outlive the result.
struct LocatedJson {
  nlohmann::json root;
  std::unique_ptr<JsonLocations> locations;
};
LocatedJson parseLocatedJson(std::string_view text, const std::string& source);

}  // namespace ccforge::base
