#include "semantics/collective_spec.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

#include <memory>
#include <stdexcept>

#include "base/input_error.hpp"
#include "base/json_locations.hpp"
#include "base/limits.hpp"
#include "base/load_file.hpp"
#include "base/text_position.hpp"

namespace ccforge::semantics {
namespace {

using nlohmann::json;

class SpecReader {
 public:
  SpecReader(std::string source, std::string_view text) : source_(std::move(source)) {
    try {
      locations_ = std::make_unique<base::JsonLocations>(text);
    } catch (const std::exception&) {
      // too deeply nested to locate: errors name the JSON pointer without a line
    }
  }

  CustomCollectiveSpec read(const json& doc) {
    if (!doc.is_object()) fail("", "a collective spec is a JSON object");
    for (const auto& [key, value] : doc.items())
      if (key != "name" && key != "ranks" && key != "input_chunks" && key != "output_chunks" && key != "precondition" &&
          key != "postcondition")
        fail("/" + key, "unknown key");
    CustomCollectiveSpec spec;
    spec.name = text(doc, "name");
    spec.ranks = integer(doc, "ranks", "");
    spec.inputChunks = integer(doc, "input_chunks", "");
    spec.outputChunks = integer(doc, "output_chunks", "");
    if (spec.ranks > base::limits::kMaxProgramRanks)
      fail("/ranks",
           "more than " + std::to_string(base::limits::kMaxProgramRanks) + " ranks, ccforge's limit (docs/limits.md)");
    if (int64_t{spec.ranks} * std::max(spec.inputChunks, spec.outputChunks) > base::limits::kMaxProgramChunks)
      fail("", "ranks x chunks is over ccforge's limit of " + std::to_string(base::limits::kMaxProgramChunks) +
                   " buffer chunks (docs/limits.md)");
    if (doc.contains("precondition")) spec.pre = entries(doc["precondition"], "/precondition");
    if (!doc.contains("postcondition")) fail("", "missing key 'postcondition'");
    spec.post = entries(doc["postcondition"], "/postcondition");
    return spec;
  }

 private:
  [[noreturn]] void fail(const std::string& path, const std::string& message) const {
    base::TextLocation where = locations_ ? locations_->at(path) : base::TextLocation{};
    throw base::InputError(source_, where, (path.empty() ? std::string() : "at " + path + ": ") + message);
  }
  std::string text(const json& obj, const char* key) const {
    if (!obj.contains(key) || !obj[key].is_string()) fail(std::string("/") + key, "expected a string");
    return obj[key].get<std::string>();
  }
  int32_t integer(const json& obj, const char* key, const std::string& at) const {
    std::string path = at + "/" + key;
    if (!obj.contains(key)) fail(at, std::string("missing key '") + key + "'");
    const json& v = obj[key];
    if (!v.is_number_integer()) fail(path, "expected an integer");
    auto n = v.get<int64_t>();
    if (n < 0 || n > INT32_MAX) fail(path, "out of range: " + std::to_string(n));
    return static_cast<int32_t>(n);
  }
  std::vector<ChunkMapEntry> entries(const json& list, const std::string& at) const {
    if (!list.is_array()) fail(at, "expected a list of {\"rank\", \"index\", \"value\"}");
    std::vector<ChunkMapEntry> out;
    for (size_t i = 0; i < list.size(); ++i) {
      std::string path = at + "/" + std::to_string(i);
      const json& e = list[i];
      if (!e.is_object()) fail(path, "expected {\"rank\", \"index\", \"value\"}");
      ChunkMapEntry entry{integer(e, "rank", path), integer(e, "index", path), {}};
      if (!e.contains("value") || !e["value"].is_array())
        fail(path + "/value", "expected a list of [rank, index] input chunks");
      for (size_t k = 0; k < e["value"].size(); ++k) {
        const json& pair = e["value"][k];
        std::string p = path + "/value/" + std::to_string(k);
        if (!pair.is_array() || pair.size() != 2 || !pair[0].is_number_integer() || !pair[1].is_number_integer())
          fail(p, "expected [rank, index]");
        entry.value.push_back(Atom{pair[0].get<int32_t>(), pair[1].get<int32_t>()});
      }
      out.push_back(std::move(entry));
    }
    return out;
  }

  std::string source_;
  std::unique_ptr<base::JsonLocations> locations_;
};

}  // namespace

CustomCollectiveSpec parseCollectiveSpec(const std::string& text, const std::string& sourceName) {
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::parse_error& e) {
    base::LineIndex lines(text);
    size_t offset = e.byte == 0 ? 0 : e.byte - 1;
    throw base::InputError(sourceName, lines.at(std::min(offset, text.size())), "malformed JSON");
  } catch (const json::exception& e) {  // e.g. a number beyond double's range (1e400)
    throw base::InputError(sourceName, {}, std::string("malformed JSON: ") + e.what());
  }
  try {
    return SpecReader(sourceName, text).read(doc);
  } catch (const json::exception& e) {
    throw base::InputError(sourceName, {}, std::string("invalid collective spec: ") + e.what());
  }
}

std::string collectiveSpecJson(const CustomCollectiveSpec& spec) {
  auto entries = [](const std::vector<ChunkMapEntry>& list) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const ChunkMapEntry& e : list) {
      nlohmann::ordered_json value = nlohmann::ordered_json::array();
      for (const Atom& a : e.value) value.push_back({a.rank, a.index});
      out.push_back({{"rank", e.rank}, {"index", e.index}, {"value", value}});
    }
    return out;
  };
  nlohmann::ordered_json doc{{"name", spec.name},
                             {"ranks", spec.ranks},
                             {"input_chunks", spec.inputChunks},
                             {"output_chunks", spec.outputChunks}};
  if (spec.pre) doc["precondition"] = entries(*spec.pre);
  doc["postcondition"] = entries(spec.post);
  // Outside strings JSON never has two minus signs in a row; inside, "\u002d" reads back as "-".
  std::string text = doc.dump();
  for (size_t at = text.find('-'); at != std::string::npos; at = text.find('-', at + 1))
    if (at + 1 < text.size() && text[at + 1] == '-') text.replace(at + 1, 1, "\\u002d");
  return text;
}

CustomCollectiveSpec readCollectiveSpecFile(const std::filesystem::path& path) {
  return parseCollectiveSpec(base::loadFile(path, 64 << 20), path.string());
}

}  // namespace ccforge::semantics
