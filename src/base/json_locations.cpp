#include "base/json_locations.hpp"

#include <algorithm>
#include <stdexcept>

#include "base/input_error.hpp"

namespace ccforge::base {

JsonLocations::JsonLocations(std::string_view text) : text_(text), lines_(text) {
  size_t end = value(skipSpace(0), "", 0);
  if (skipSpace(end) != text_.size()) throw std::logic_error("JsonLocations: trailing text after the JSON value");
}

std::string JsonLocations::child(std::string_view pointer, std::string_view key) {
  std::string out(pointer);
  out += '/';
  for (char c : key) {
    if (c == '~')
      out += "~0";
    else if (c == '/')
      out += "~1";
    else
      out += c;
  }
  return out;
}

std::string JsonLocations::child(std::string_view pointer, size_t index) {
  return std::string(pointer) + "/" + std::to_string(index);
}

TextLocation JsonLocations::at(std::string_view pointer) const {
  std::string p(pointer);
  for (;;) {
    if (auto it = spans_.find(p); it != spans_.end()) return lines_.at(it->second.begin);
    if (p.empty()) return {};
    p.erase(p.rfind('/'));
  }
}

std::optional<std::string_view> JsonLocations::rawScalar(std::string_view pointer) const {
  auto it = spans_.find(pointer);
  if (it == spans_.end()) return std::nullopt;
  return text_.substr(it->second.begin, it->second.end - it->second.begin);
}

size_t JsonLocations::skipSpace(size_t pos) const {
  while (pos < text_.size() && (text_[pos] == ' ' || text_[pos] == '\n' || text_[pos] == '\r' || text_[pos] == '\t'))
    ++pos;
  return pos;
}

// Returns the position after the closing quote. Escapes other than \uXXXX are decoded;
// \uXXXX is kept verbatim (keys in our schemas are plain ASCII).
size_t JsonLocations::string(size_t pos, std::string* decoded) const {
  ++pos;  // opening quote
  while (pos < text_.size() && text_[pos] != '"') {
    char c = text_[pos++];
    if (c == '\\' && pos < text_.size()) {
      char e = text_[pos++];
      if (decoded == nullptr) continue;
      switch (e) {
        case 'n': *decoded += '\n'; break;
        case 't': *decoded += '\t'; break;
        case 'r': *decoded += '\r'; break;
        case 'b': *decoded += '\b'; break;
        case 'f': *decoded += '\f'; break;
        case 'u': *decoded += "\\u"; break;
        default: *decoded += e;
      }
    } else if (decoded != nullptr) {
      *decoded += c;
    }
  }
  return pos + 1;
}

size_t JsonLocations::value(size_t pos, const std::string& pointer, int depth) {
  if (depth > kMaxDepth)
    throw std::length_error("JSON values nest deeper than " + std::to_string(kMaxDepth) + " levels");
  size_t begin = pos;
  if (pos >= text_.size()) throw std::logic_error("JsonLocations: unexpected end of text");
  char c = text_[pos];
  if (c == '{') {
    pos = skipSpace(pos + 1);
    std::map<std::string, bool> seen;
    while (pos < text_.size() && text_[pos] != '}') {
      std::string key;
      pos = skipSpace(string(pos, &key));
      pos = skipSpace(pos + 1);  // ':'
      std::string member = child(pointer, key);
      if (seen.count(key) != 0 && !duplicate_) duplicate_ = member;
      seen[key] = true;
      pos = skipSpace(value(pos, member, depth + 1));
      if (pos < text_.size() && text_[pos] == ',') pos = skipSpace(pos + 1);
    }
    ++pos;
  } else if (c == '[') {
    pos = skipSpace(pos + 1);
    size_t index = 0;
    while (pos < text_.size() && text_[pos] != ']') {
      pos = skipSpace(value(pos, child(pointer, index++), depth + 1));
      if (pos < text_.size() && text_[pos] == ',') pos = skipSpace(pos + 1);
    }
    ++pos;
  } else if (c == '"') {
    pos = string(pos, nullptr);
  } else {
    while (pos < text_.size() && text_[pos] != ',' && text_[pos] != '}' && text_[pos] != ']' && text_[pos] != ' ' &&
           text_[pos] != '\n' && text_[pos] != '\r' && text_[pos] != '\t')
      ++pos;
  }
  // A duplicate key takes the last location, like the value the JSON parser keeps.
  spans_.insert_or_assign(pointer, Span{begin, pos});
  return pos;
}

LocatedJson parseLocatedJson(std::string_view text, const std::string& source) {
  LocatedJson out;
  try {
    out.root = nlohmann::json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::parse_error& e) {
    const size_t offset = e.byte > 0 ? e.byte - 1 : 0;
    std::string what = e.what();
    if (auto colon = what.find(": "); colon != std::string::npos) what = what.substr(colon + 2);
    throw InputError(source, LineIndex(text).at(std::min(offset, text.size())), "malformed JSON: " + what);
  } catch (const nlohmann::json::exception& e) {  // e.g. a number beyond double's range (1e400)
    std::string what = e.what();
    if (auto bracket = what.find("] "); bracket != std::string::npos) what = what.substr(bracket + 2);
    throw InputError(source, {}, "malformed JSON: " + what);
  }
  try {
    out.locations = std::make_unique<JsonLocations>(text);
  } catch (const std::length_error& e) {
    throw InputError(source, {}, e.what());
  }
  if (const auto& key = out.locations->duplicateKey())
    throw InputError(source, out.locations->at(*key), *key + ": duplicate key");
  return out;
}

}  // namespace ccforge::base
