#include "semantics/ir/reader.hpp"

#include <pugixml.hpp>

#include <array>
#include <charconv>
#include <cstring>
#include <limits>
#include <optional>
#include <string_view>

#include "semantics/input_error.hpp"
#include "semantics/ir/names.hpp"
#include "semantics/ir/runtime_lexical_scan.hpp"
#include "semantics/ir/text_position.hpp"

namespace ccforge::ir {
namespace {

// The attributes an element may carry; required ones must all be present.
struct AttributeSpec {
  std::string_view name;
  bool required;
};

template <size_t N>
using Schema = std::array<AttributeSpec, N>;

constexpr Schema<10> kAlgoSchema{{{"name", false},
                                  {"proto", true},
                                  {"nchannels", true},
                                  {"nchunksperloop", true},
                                  {"ngpus", true},
                                  {"coll", true},
                                  {"inplace", false},
                                  {"outofplace", false},
                                  {"minBytes", false},
                                  {"maxBytes", false}}};
constexpr Schema<4> kGpuSchema{{{"id", true}, {"i_chunks", true}, {"o_chunks", true}, {"s_chunks", true}}};
constexpr Schema<4> kTbSchema{{{"id", true}, {"send", true}, {"recv", true}, {"chan", true}}};
constexpr Schema<10> kStepSchema{{{"s", true},
                                  {"type", true},
                                  {"srcbuf", true},
                                  {"srcoff", true},
                                  {"dstbuf", true},
                                  {"dstoff", true},
                                  {"cnt", true},
                                  {"depid", true},
                                  {"deps", true},
                                  {"hasdep", true}}};

class Reader {
 public:
  Reader(std::string& text, const std::string& sourceName) : text_(text), source_(sourceName), lines_(text) {}

  ReadResult read() {
    ReadResult result;
    if (auto nul = text_.find('\0'); nul != std::string::npos)
      fail(nul, "binary data (NUL byte): not an MSCCL-IR XML file");
    result.runtimeParserIssues = scanForRuntimeParser(text_, lines_);

    constexpr unsigned kFlags = pugi::parse_escapes | pugi::parse_eol | pugi::parse_declaration |
                                pugi::parse_doctype | pugi::parse_pi | pugi::parse_cdata;
    pugi::xml_document doc;
    pugi::xml_parse_result parsed = doc.load_buffer_inplace(text_.data(), text_.size(), kFlags, pugi::encoding_utf8);
    if (parsed.status == pugi::status_no_document_element) fail(0, "no <algo> element: not an MSCCL-IR file");
    if (!parsed) fail(static_cast<size_t>(parsed.offset), std::string("malformed XML: ") + parsed.description());

    pugi::xml_node algo;
    for (pugi::xml_node node : doc.children()) {
      if (node.type() == pugi::node_declaration) continue;  // reported by the lexical scan
      expectElement(node, "algo", "the document");
      if (algo) failAt(node, "a second <algo> element: one file holds one algorithm");
      algo = node;
    }
    if (!algo) fail(0, "no <algo> element: not an MSCCL-IR file");
    result.algorithm = readAlgo(algo);
    return result;
  }

 private:
  [[noreturn]] void fail(size_t offset, const std::string& message) const {
    throw InputError(source_, lines_.at(std::min(offset, text_.size())), message);
  }
  size_t offsetOf(const char* p) const { return static_cast<size_t>(p - text_.data()); }
  // offset_debug() points at an element's name; report the '<' before it.
  TextLocation where(pugi::xml_node node) const {
    ptrdiff_t offset = node.offset_debug();
    if (offset < 0) return {};
    return lines_.at(static_cast<size_t>(offset) - (node.type() == pugi::node_element && offset > 0 ? 1 : 0));
  }
  [[noreturn]] void failAt(pugi::xml_node node, const std::string& message) const {
    throw InputError(source_, where(node), message);
  }
  [[noreturn]] void failAt(pugi::xml_attribute attr, const std::string& message) const {
    fail(offsetOf(attr.name()), message);
  }

  void expectElement(pugi::xml_node node, std::string_view name, std::string_view parent) const {
    switch (node.type()) {
      case pugi::node_element:
        if (name != node.name())
          failAt(node, "unexpected element <" + std::string(node.name()) + "> in " + std::string(parent) +
                           ", expected <" + std::string(name) + "> (the runtime would silently skip it)");
        return;
      case pugi::node_pcdata:
        failAt(node, "unexpected text in " + std::string(parent));
      case pugi::node_cdata:
        failAt(node, "unexpected CDATA section in " + std::string(parent));
      case pugi::node_doctype:
        failAt(node, "DOCTYPE is not allowed in MSCCL-IR");
      case pugi::node_pi:
        failAt(node, "processing instruction is not allowed in MSCCL-IR");
      case pugi::node_declaration:
        failAt(node, "XML declaration must come first");
      default:
        failAt(node, "unexpected node in " + std::string(parent));
    }
  }

  // Collects an element's attributes by schema slot; rejects unknown, duplicate and missing ones.
  template <size_t N>
  std::array<pugi::xml_attribute, N> attributes(pugi::xml_node node, const Schema<N>& schema) const {
    std::array<pugi::xml_attribute, N> slots{};
    for (pugi::xml_attribute attr : node.attributes()) {
      size_t k = 0;
      while (k < N && schema[k].name != attr.name()) ++k;
      if (k == N)
        failAt(attr, "unknown attribute '" + std::string(attr.name()) + "' on <" + node.name() +
                         "> (the runtime ignores it, so its intent would be lost)");
      if (slots[k]) failAt(attr, "duplicate attribute '" + std::string(attr.name()) + "' on <" + node.name() + ">");
      slots[k] = attr;
    }
    for (size_t k = 0; k < N; ++k)
      if (schema[k].required && !slots[k])
        failAt(node, "missing required attribute '" + std::string(schema[k].name) + "' on <" + node.name() + ">");
    return slots;
  }

  // Canonical decimal only: the runtime reads numbers with strtol(..., 0), so "010" would be
  // octal and "abc" zero; we refuse both rather than guess.
  template <typename T>
  T number(pugi::xml_attribute attr) const {
    std::string_view v = attr.value();
    std::string_view digits = v.substr(!v.empty() && v[0] == '-' ? 1 : 0);
    bool canonical = !digits.empty() && (digits.size() == 1 || digits[0] != '0') &&
                     digits.find_first_not_of("0123456789") == std::string_view::npos;
    if (!canonical) {
      std::string why =
          digits.size() > 1 && digits[0] == '0' ? " (leading zero: the runtime would read it as octal or hex)" : "";
      failAt(attr, "attribute '" + std::string(attr.name()) + "' must be a decimal integer, got \"" +
                       std::string(v) + "\"" + why);
    }
    T out{};
    auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
    if (ec != std::errc{} || end != v.data() + v.size())
      failAt(attr, "attribute '" + std::string(attr.name()) + "' = " + std::string(v) + " is out of range [" +
                       std::to_string(std::numeric_limits<T>::min()) + ", " +
                       std::to_string(std::numeric_limits<T>::max()) + "]");
    return out;
  }
  int32_t int32(pugi::xml_attribute attr) const { return number<int32_t>(attr); }

  bool flag(pugi::xml_attribute attr) const {
    std::string_view v = attr.value();
    if (v != "0" && v != "1")
      failAt(attr, "attribute '" + std::string(attr.name()) + "' must be 0 or 1, got \"" + std::string(v) + "\"");
    return v == "1";
  }

  Buffer buffer(pugi::xml_attribute attr) const {
    if (auto b = parseBuffer(attr.value())) return *b;
    failAt(attr, "attribute '" + std::string(attr.name()) + "' must be i, o or s, got \"" + attr.value() + "\"");
  }

  Algorithm readAlgo(pugi::xml_node node) const {
    auto a = attributes(node, kAlgoSchema);
    Algorithm algo;
    algo.where = where(node);
    if (a[0]) algo.name = a[0].value();
    auto proto = parseProtocol(a[1].value());
    if (!proto) failAt(a[1], "proto must be Simple, LL or LL128, got \"" + std::string(a[1].value()) + "\"");
    algo.proto = *proto;
    algo.nchannels = int32(a[2]);
    algo.nchunksperloop = int32(a[3]);
    algo.ngpus = int32(a[4]);
    algo.collName = a[5].value();
    auto coll = parseCollectiveKind(algo.collName);
    if (!coll) failAt(a[5], "unknown collective coll=\"" + algo.collName + "\"");
    algo.coll = *coll;
    if (a[6]) algo.inplace = flag(a[6]);
    if (a[7]) algo.outofplace = flag(a[7]);
    if (a[8]) algo.minBytes = number<int64_t>(a[8]);
    if (a[9]) algo.maxBytes = number<int64_t>(a[9]);
    for (pugi::xml_node child : node.children()) {
      expectElement(child, "gpu", "<algo>");
      algo.gpus.push_back(readGpu(child));
    }
    return algo;
  }

  Gpu readGpu(pugi::xml_node node) const {
    auto a = attributes(node, kGpuSchema);
    Gpu gpu;
    gpu.where = where(node);
    gpu.id = int32(a[0]);
    gpu.inputChunks = int32(a[1]);
    gpu.outputChunks = int32(a[2]);
    gpu.scratchChunks = int32(a[3]);
    for (pugi::xml_node child : node.children()) {
      expectElement(child, "tb", "<gpu>");
      gpu.threadBlocks.push_back(readThreadBlock(child));
    }
    return gpu;
  }

  ThreadBlock readThreadBlock(pugi::xml_node node) const {
    auto a = attributes(node, kTbSchema);
    ThreadBlock tb;
    tb.where = where(node);
    tb.id = int32(a[0]);
    tb.send = int32(a[1]);
    tb.recv = int32(a[2]);
    tb.chan = int32(a[3]);
    for (pugi::xml_node child : node.children()) {
      expectElement(child, "step", "<tb>");
      tb.steps.push_back(readStep(child));
    }
    return tb;
  }

  Step readStep(pugi::xml_node node) const {
    auto a = attributes(node, kStepSchema);
    if (node.first_child()) failAt(node.first_child(), "unexpected content inside <step>: steps are empty elements");
    Step step;
    step.where = where(node);
    step.s = int32(a[0]);
    auto type = parseOpType(a[1].value());
    if (!type) failAt(a[1], "unknown step type \"" + std::string(a[1].value()) + "\"");
    step.type = *type;
    step.srcbuf = buffer(a[2]);
    step.srcoff = int32(a[3]);
    step.dstbuf = buffer(a[4]);
    step.dstoff = int32(a[5]);
    step.cnt = int32(a[6]);
    step.depid = int32(a[7]);
    step.deps = int32(a[8]);
    step.hasdep = flag(a[9]);
    return step;
  }

  std::string& text_;
  const std::string& source_;
  LineIndex lines_;
};

}  // namespace

ReadResult readAlgorithm(std::string text, const std::string& sourceName) {
  return Reader(text, sourceName).read();
}

ReadResult readAlgorithmFile(const std::filesystem::path& path, uint64_t maxBytes) {
  return readAlgorithm(loadFile(path, maxBytes), path.string());
}

}  // namespace ccforge::ir
