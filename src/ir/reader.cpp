#include "ir/reader.hpp"

#include <expat.h>

#include <array>
#include <charconv>
#include <cstring>
#include <limits>
#include <memory>
#include <vector>
#include <optional>
#include <string_view>

#include "base/input_error.hpp"
#include "ir/names.hpp"
#include "ir/runtime_lexical_scan.hpp"

namespace ccforge::ir {
namespace {

// The attributes an element may carry; required ones must all be present.
struct AttributeSpec {
  std::string_view name;
  bool required;
};

template <size_t N>
using Schema = std::array<AttributeSpec, N>;

// maxcount and nthreadblocks: informational, written by msccl-tools' older ncclize (RCCL's
// unit-test algorithms carry them); both parsers ignore them, and so does ccforge.
constexpr Schema<12> kAlgoSchema{{{"name", false},
                                  {"proto", true},
                                  {"nchannels", true},
                                  {"nchunksperloop", true},
                                  {"ngpus", true},
                                  {"coll", true},
                                  {"inplace", false},
                                  {"outofplace", false},
                                  {"minBytes", false},
                                  {"maxBytes", false},
                                  {"maxcount", false},
                                  {"nthreadblocks", false}}};
constexpr Schema<4> kGpuSchema{{{"id", true}, {"i_chunks", true}, {"o_chunks", true}, {"s_chunks", true}}};
constexpr Schema<4> kTbSchema{{{"id", true}, {"send", true}, {"recv", true}, {"chan", true}}};
constexpr Schema<6> kOperandSchema{
    {{"id", true}, {"name", false}, {"dtype", true}, {"rows", true}, {"cols", true}, {"layout", false}}};
constexpr Schema<5> kProductSchema{{{"op", true}, {"a", true}, {"b", true}, {"rows", true}, {"cols", true}}};
constexpr Schema<13> kStepSchema{{{"s", true},
                                  {"type", true},
                                  {"srcbuf", true},
                                  {"srcoff", true},
                                  {"dstbuf", true},
                                  {"dstoff", true},
                                  {"cnt", true},
                                  {"depid", true},
                                  {"deps", true},
                                  {"hasdep", true},
                                  {"op", false},
                                  {"row", false},
                                  {"nrows", false}}};

// Raised inside an expat callback; carried out of XML_Parse and rethrown as an InputError.
struct Stop {
  base::TextLocation where;
  std::string message;
};

struct ExpatDeleter {
  void operator()(XML_ParserStruct* p) const { XML_ParserFree(p); }
};

// Builds the model from expat's events. Elements may only nest algo > gpu > tb > step.
class Reader {
 public:
  Reader(std::string source, std::optional<RuntimeLexicalLimits> lexicalLimits)
      : source_(std::move(source)), parser_(XML_ParserCreate("UTF-8")), lexicalScan_(lexicalLimits) {
    XML_SetUserData(parser_.get(), this);
    XML_SetElementHandler(parser_.get(), &Reader::onStart, &Reader::onEnd);
    XML_SetCharacterDataHandler(parser_.get(), &Reader::onText);
    XML_SetCommentHandler(parser_.get(), &Reader::onComment);
    // Without a handler of their own, the spaces before and after the root element come here.
    XML_SetDefaultHandlerExpand(parser_.get(), &Reader::onOutsideRoot);
    XML_SetXmlDeclHandler(parser_.get(), &Reader::onDeclaration);
    XML_SetProcessingInstructionHandler(parser_.get(), &Reader::onInstruction);
    XML_SetStartCdataSectionHandler(parser_.get(), &Reader::onCdata);
    XML_SetStartDoctypeDeclHandler(parser_.get(), &Reader::onDoctype);
  }

  // Feeds the next piece of the document (`last` for the final one, which may be empty).
  void feed(const char* data, size_t size, bool last) {
    if (size > 0 && std::memchr(data, '\0', size))
      throw base::InputError(source_, location(), "binary data (NUL byte): not an MSCCL-IR XML file");
    if (!fedAny_ && size > 0) lexicalScan_.documentStart({data, size});
    fedAny_ = fedAny_ || size > 0;
    if (XML_Parse(parser_.get(), data, static_cast<int>(size), last) == XML_STATUS_ERROR) {
      if (stop_) throw base::InputError(source_, stop_->where, stop_->message);
      XML_Error code = XML_GetErrorCode(parser_.get());
      if (code == XML_ERROR_NO_ELEMENTS && !sawAlgo_)
        throw base::InputError(source_, location(), "no <algo> element: not an MSCCL-IR file");
      throw base::InputError(source_, location(), std::string("malformed XML: ") + XML_ErrorString(code));
    }
  }

  ReadResult finish() {
    if (!sawAlgo_) throw base::InputError(source_, location(), "no <algo> element: not an MSCCL-IR file");
    result_.runtimeParserIssues = lexicalScan_.take();
    return std::move(result_);
  }

 private:
  static Reader& self(void* user) { return *static_cast<Reader*>(user); }

  // Expat's position of the current event; columns are 0-based there.
  base::TextLocation location() const {
    return {static_cast<uint32_t>(XML_GetCurrentLineNumber(parser_.get())),
            static_cast<uint32_t>(XML_GetCurrentColumnNumber(parser_.get()) + 1)};
  }
  [[noreturn]] void stop(base::TextLocation where, std::string message) {
    stop_ = Stop{where, std::move(message)};
    XML_StopParser(parser_.get(), XML_FALSE);
    throw *stop_;
  }
  // Callbacks must not let exceptions cross expat's C frames.
  template <typename F>
  static void guarded(void* user, F&& f) {
    Reader& r = self(user);
    if (r.stop_) return;
    try {
      f(r);
    } catch (const Stop&) {
    }
  }

  // The raw text of the current event (a tag, a run of text), for the runtime's lexical rules
  // and for attribute positions (expat reports only where a tag starts).
  std::string_view rawEvent() const {
    int offset = 0, size = 0;
    const char* buffer = XML_GetInputContext(parser_.get(), &offset, &size);
    int count = XML_GetCurrentByteCount(parser_.get());
    if (!buffer || count <= 0 || offset + count > size) return {};
    return {buffer + offset, static_cast<size_t>(count)};
  }
  base::TextLocation attributeLocation(std::string_view attribute) const {
    base::TextLocation at = location();
    std::string_view tag = rawEvent();
    for (size_t pos = tag.find(attribute); pos != std::string_view::npos; pos = tag.find(attribute, pos + 1)) {
      bool starts = pos > 0 && (tag[pos - 1] == ' ' || tag[pos - 1] == '\t' || tag[pos - 1] == '\n');
      size_t after = pos + attribute.size();
      while (after < tag.size() && tag[after] == ' ') ++after;
      if (!starts || after >= tag.size() || tag[after] != '=') continue;
      if (tag.substr(0, pos).find('\n') != std::string_view::npos) return at;  // tag spans lines
      return {at.line, at.column + static_cast<uint32_t>(pos)};
    }
    return at;
  }

  static void onStart(void* user, const XML_Char* name, const XML_Char** attributes) {
    guarded(user, [&](Reader& r) { r.start(name, attributes); });
  }
  static void onEnd(void* user, const XML_Char*) {
    guarded(user, [](Reader& r) {
      if (r.skipped_ > 0) {
        --r.skipped_;
        return;
      }
      r.lexicalScan_.endTag(r.rawEvent(), r.location());
      r.inLeaf_ = false;
      --r.depth_;
    });
  }
  static void onText(void* user, const XML_Char* text, int length) {
    guarded(user, [&](Reader& r) {
      std::string_view t(text, static_cast<size_t>(length));
      if (r.skipped_ > 0) return;
      if (t.find_first_not_of(" \t\r\n") != std::string_view::npos)
        r.stop(r.location(), std::string("unexpected text in <") + kElements[r.depth_ - 1].data() + ">");
      r.lexicalScan_.textBetweenTags(r.rawEvent(), r.location());
    });
  }
  static void onOutsideRoot(void* user, const XML_Char* text, int length) {
    guarded(user, [&](Reader& r) {
      std::string_view t(text, static_cast<size_t>(length));
      if (!t.starts_with('<')) r.lexicalScan_.textBetweenTags(t, r.location());
    });
  }
  static void onComment(void* user, const XML_Char* data) {
    guarded(user, [&](Reader& r) {
      r.lexicalScan_.comment(data, r.location());
      std::string_view text(data);
      const std::string prefix = " " + std::string(kCollectiveSpecComment) + " ";
      if (r.depth_ == 1 && text.starts_with(prefix) && text.ends_with(" "))
        r.result_.algorithm.collectiveSpec = std::string(text.substr(prefix.size(), text.size() - prefix.size() - 1));
      r.suppression(text);
    });
  }

  // `<!-- ccforge-disable RULE: REASON -->`: the rule is checked against the catalogue by verify.
  void suppression(std::string_view text) {
    const auto trimmed = [](std::string_view t) {
      const size_t b = t.find_first_not_of(" \t\r\n");
      if (b == std::string_view::npos) return std::string_view();
      return t.substr(b, t.find_last_not_of(" \t\r\n") - b + 1);
    };
    text = trimmed(text);
    constexpr std::string_view kPrefix = "ccforge-disable";
    if (!text.starts_with(kPrefix)) return;
    const size_t colon = text.find(':');
    const std::string_view rule =
        trimmed(text.substr(kPrefix.size(), colon == std::string_view::npos ? text.npos : colon - kPrefix.size()));
    const std::string_view reason =
        colon == std::string_view::npos ? std::string_view() : trimmed(text.substr(colon + 1));
    if (text.size() > kPrefix.size() && text[kPrefix.size()] != ' ' && text[kPrefix.size()] != '\t')
      stop(location(), "a suppression comment reads <!-- ccforge-disable RULE: REASON -->");
    if (rule.empty() || rule.find_first_of(" \t") != std::string_view::npos || reason.empty())
      stop(location(), "a suppression comment names one rule and why: <!-- ccforge-disable RULE: REASON -->");
    result_.algorithm.suppressions.push_back(RuleSuppression{std::string(rule), std::string(reason), location()});
  }
  static void onDeclaration(void* user, const XML_Char*, const XML_Char*, int) {
    guarded(user, [](Reader& r) { r.lexicalScan_.declaration(r.location()); });
  }
  static void onInstruction(void* user, const XML_Char*, const XML_Char*) {
    guarded(user, [](Reader& r) { r.stop(r.location(), "processing instruction is not allowed in MSCCL-IR"); });
  }
  static void onCdata(void* user) {
    guarded(user, [](Reader& r) { r.stop(r.location(), "unexpected CDATA section"); });
  }
  static void onDoctype(void* user, const XML_Char*, const XML_Char*, const XML_Char*, int) {
    guarded(user, [](Reader& r) { r.stop(r.location(), "DOCTYPE is not allowed in MSCCL-IR"); });
  }

  static constexpr std::array<std::string_view, 4> kElements{"algo", "gpu", "tb", "step"};

  void start(std::string_view name, const XML_Char** attributes) {
    base::TextLocation where = location();
    if (skipped_ > 0) {
      ++skipped_;
      return;
    }
    if (inLeaf_) stop(where, "unexpected content inside <operand>/<product>: they are empty elements");
    if (depth_ == 2 && (name == "operand" || name == "product")) {
      if (!result_.algorithm.fused)
        stop(where, "<" + std::string(name) + "> belongs to fused programs only (coll=\"fused-...\", docs/fused.md)");
      if (!result_.algorithm.gpus.back().threadBlocks.empty())
        stop(where, "<" + std::string(name) + "> must come before the <tb> elements of its <gpu>");
      lexicalScan_.startTag(rawEvent(), where);
      if (name == "operand")
        result_.algorithm.gpus.back().operands.push_back(readOperand(attributes, where));
      else if (result_.algorithm.gpus.back().product)
        stop(where, "a <gpu> has at most one <product>");
      else
        result_.algorithm.gpus.back().product = readProduct(attributes, where);
      inLeaf_ = true;
      ++depth_;
      return;
    }
    std::string_view expected = depth_ < 4 ? kElements[depth_] : std::string_view{};
    if (name != expected) {
      std::string parent = "the document";
      if (depth_ > 0) parent = std::string("<").append(kElements[depth_ - 1]).append(">");
      // An element inside <step> crashes the runtime's parser (mscclAlgoXmlStep passes one handler
      // and no array, msccl_parser.cc:211-213); anywhere else below <algo> it skips the element and
      // everything in it (:203-206), and so does ccforge, with a warning: a misspelt <step> is an
      // instruction lost, which the semantic checks then judge.
      if (expected.empty()) stop(where, "unexpected content inside <step>: steps are empty elements");
      if (depth_ == 0) stop(where, "unexpected element <" + std::string(name) + ">, expected <algo>");
      lexicalScan_.readAsWarning(where, "the runtime skips the unknown element <" + std::string(name) + "> in " +
                                            parent + " and everything inside it (expected <" + std::string(expected) +
                                            ">)");
      skipped_ = 1;
      return;
    }
    lexicalScan_.startTag(rawEvent(), where);
    Algorithm& a = result_.algorithm;
    switch (depth_) {
      case 0:
        sawAlgo_ = true;
        readAlgo(attributes, where);
        break;
      case 1: a.gpus.push_back(readGpu(attributes, where)); break;
      case 2:
        if (a.gpus.back().threadBlocks.size() == kMaxChildren) tooMany(where, "<tb>");
        a.gpus.back().threadBlocks.push_back(readThreadBlock(attributes, where));
        break;
      case 3: {
        auto& steps = a.gpus.back().threadBlocks.back().steps;
        if (steps.size() == kMaxChildren) tooMany(where, "<step>");
        steps.push_back(readStep(attributes, where));
        break;
      }
    }
    ++depth_;
  }

  // Far beyond every runtime limit; keeps a hostile file from growing the model without bound.
  static constexpr size_t kMaxChildren = 1 << 20;
  [[noreturn]] void tooMany(base::TextLocation where, const char* what) {
    stop(where, std::string("more than ") + std::to_string(kMaxChildren) + " " + what + " elements in one parent");
  }

  // Collects an element's attributes by schema slot; rejects unknown and missing ones
  // (expat itself rejects duplicates).
  template <size_t N>
  std::array<const char*, N> slots(const XML_Char** attributes, const Schema<N>& schema, std::string_view element,
                                   base::TextLocation where) {
    std::array<const char*, N> values{};
    for (const XML_Char** a = attributes; *a; a += 2) {
      size_t k = 0;
      while (k < N && schema[k].name != a[0]) ++k;
      if (k == N)
        stop(attributeLocation(a[0]), "unknown attribute '" + std::string(a[0]) + "' on <" + std::string(element) +
                                          "> (the runtime ignores it, so its intent would be lost)");
      values[k] = a[1];
    }
    for (size_t k = 0; k < N; ++k)
      if (schema[k].required && !values[k])
        stop(where,
             "missing required attribute '" + std::string(schema[k].name) + "' on <" + std::string(element) + ">");
    return values;
  }

  // Numbers as the runtimes read them: strtol(str, NULL, 0) (strtoll for minBytes/maxBytes;
  // msccl-executor-nccl c6f6b36 src/include/msccl/msccl_parser.h:75-87, microsoft/msccl's
  // xmlGetAttrInt). Canonical decimal is read as written. Another spelling strtol consumes whole
  // (a sign, 0x and hex digits, 0 and octal digits: "+1", "0x2", "010") is read as the runtime
  // reads it, with a format.runtime-parser warning naming the value ("010" is 8). Anything else
  // ("abc", "5k", "", " 1") the runtime reads a prefix of, or zero: a read error.
  struct Spelled {
    bool negative = false;
    uint64_t magnitude = 0;
    bool overflow = false;  // beyond 2^64 - 1
    bool canonical = false;
    int base = 10;
  };
  static std::optional<Spelled> spelled(std::string_view v) {
    Spelled out;
    size_t i = 0;
    if (i < v.size() && (v[i] == '-' || v[i] == '+')) out.negative = v[i++] == '-';
    std::string_view digits = v.substr(i);
    if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
      out.base = 16;
      digits.remove_prefix(2);
    } else if (digits.size() > 1 && digits[0] == '0') {
      out.base = 8;
    }
    if (digits.empty()) return std::nullopt;
    for (char c : digits) {
      const int d = c >= '0' && c <= '9'   ? c - '0'
                    : c >= 'a' && c <= 'f' ? c - 'a' + 10
                    : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                           : 99;
      if (d >= out.base) return std::nullopt;
      if (out.magnitude >
          (std::numeric_limits<uint64_t>::max() - static_cast<uint64_t>(d)) / static_cast<uint64_t>(out.base))
        out.overflow = true;
      out.magnitude = out.magnitude * static_cast<uint64_t>(out.base) + static_cast<uint64_t>(d);
    }
    out.canonical = out.base == 10 && v[0] != '+';
    return out;
  }
  // The value the runtime reads, warned about unless canonical; a read error for what strtol
  // would not consume whole, and for a value outside lo..hi unless `saturating` (strtoll).
  int64_t readNumber(std::string_view v, std::string_view attribute, int64_t lo, int64_t hi, bool saturating) {
    const std::optional<Spelled> n = spelled(v);
    if (!n)
      stop(attributeLocation(attribute), "attribute '" + std::string(attribute) + "' must be an integer, got \"" +
                                             std::string(v) +
                                             "\" (the runtime's strtol would read a prefix of it, or 0)");
    const uint64_t largest = n->negative ? static_cast<uint64_t>(-(lo + 1)) + 1 : static_cast<uint64_t>(hi);
    int64_t out = 0;
    if (n->overflow || n->magnitude > largest) {
      if (!saturating)
        stop(attributeLocation(attribute), "attribute '" + std::string(attribute) + "' = " + std::string(v) +
                                               " is out of range [" + std::to_string(lo) + ", " + std::to_string(hi) +
                                               "]");
      out = n->negative ? lo : hi;
    } else {
      out = !n->negative        ? static_cast<int64_t>(n->magnitude)
            : n->magnitude == 0 ? 0
                                : -static_cast<int64_t>(n->magnitude - 1) - 1;
    }
    if (!n->canonical)
      lexicalScan_.readAsWarning(attributeLocation(attribute),
                                 "attribute '" + std::string(attribute) + "' = \"" + std::string(v) +
                                     "\": the runtime's strtol(..., 0) reads it as " + std::to_string(out) +
                                     (n->base == 8    ? " (octal)"
                                      : n->base == 16 ? " (hexadecimal)"
                                                      : "") +
                                     "; write " + std::to_string(out));
    return out;
  }
  template <typename T>
  T number(const char* value, std::string_view attribute) {
    return static_cast<T>(
        readNumber(value, attribute, std::numeric_limits<T>::min(), std::numeric_limits<T>::max(), false));
  }
  int32_t int32(const char* value, std::string_view attribute) { return number<int32_t>(value, attribute); }

  // minBytes and maxBytes as both runtimes read them: strtoll (msccl-executor-nccl msccl_parser.cc
  // mscclXmlGetAttrInt64, microsoft/msccl's xmlGetAttrInt64_t), which saturates. A decimal above
  // 2^63 - 1, such as 2^64 - 1, is the window bound 2^63 - 1 to the runtime, and one below -2^63 is
  // -2^63 (which verify refuses as limits.size-window, like every negative bound).
  int64_t byteBound(const char* value, std::string_view attribute) {
    return readNumber(value, attribute, std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max(), true);
  }

  bool flag(const char* value, std::string_view attribute) {
    std::string_view v = value;
    if (v != "0" && v != "1")
      stop(attributeLocation(attribute),
           "attribute '" + std::string(attribute) + "' must be 0 or 1, got \"" + std::string(v) + "\"");
    return v == "1";
  }

  Buffer buffer(const char* value, std::string_view attribute) {
    if (auto b = parseBuffer(value)) return *b;
    stop(attributeLocation(attribute),
         "attribute '" + std::string(attribute) + "' must be i, o or s, got \"" + std::string(value) + "\"");
  }

  // "w": the rank's operands (fused programs only).
  bool operandBuffer(const char* value, std::string_view attribute) {
    if (std::string_view(value) != "w") return false;
    if (!result_.algorithm.fused)
      stop(attributeLocation(attribute), "buffer \"w\" (operands) belongs to fused programs only");
    return true;
  }

  Operand readOperand(const XML_Char** attributes, base::TextLocation where) {
    auto a = slots(attributes, kOperandSchema, "operand", where);
    Operand o;
    o.where = where;
    o.id = int32(a[0], "id");
    if (a[1]) o.name = a[1];
    auto dtype = parseOperandType(a[2]);
    if (!dtype) stop(attributeLocation("dtype"), "dtype must be f32 or i32, got \"" + std::string(a[2]) + "\"");
    o.dtype = *dtype;
    o.rows = int32(a[3], "rows");
    o.cols = int32(a[4], "cols");
    if (a[5] && std::string_view(a[5]) != "row" && std::string_view(a[5]) != "col")
      stop(attributeLocation("layout"), "layout must be row or col, got \"" + std::string(a[5]) + "\"");
    o.columnMajor = a[5] && std::string_view(a[5]) == "col";
    return o;
  }

  Product readProduct(const XML_Char** attributes, base::TextLocation where) {
    auto a = slots(attributes, kProductSchema, "product", where);
    Product p;
    p.where = where;
    auto op = parseComputeOp(a[0]);
    if (!op) stop(attributeLocation("op"), "op must be gemv, embag or gemm, got \"" + std::string(a[0]) + "\"");
    p.op = *op;
    p.a = int32(a[1], "a");
    p.b = int32(a[2], "b");
    p.rows = int32(a[3], "rows");
    p.cols = int32(a[4], "cols");
    return p;
  }

  void readAlgo(const XML_Char** attributes, base::TextLocation where) {
    auto a = slots(attributes, kAlgoSchema, "algo", where);
    Algorithm& algo = result_.algorithm;
    algo.where = where;
    if (a[0]) algo.name = a[0];
    auto proto = parseProtocol(a[1]);
    if (!proto)
      stop(attributeLocation("proto"), "proto must be Simple, LL or LL128, got \"" + std::string(a[1]) + "\"");
    algo.proto = *proto;
    algo.nchannels = int32(a[2], "nchannels");
    algo.nchunksperloop = int32(a[3], "nchunksperloop");
    algo.ngpus = int32(a[4], "ngpus");
    algo.collName = a[5];
    std::string_view collective = algo.collName;
    if (collective.starts_with(kFusedCollPrefix)) {
      algo.fused = true;
      collective.remove_prefix(kFusedCollPrefix.size());
    }
    auto coll = parseCollectiveKind(collective);
    if (!coll) stop(attributeLocation("coll"), "unknown collective coll=\"" + algo.collName + "\"");
    algo.coll = *coll;
    if (a[6]) algo.inplace = flag(a[6], "inplace");
    if (a[7]) algo.outofplace = flag(a[7], "outofplace");
    if (a[8]) algo.minBytes = byteBound(a[8], "minBytes");
    if (a[9]) algo.maxBytes = byteBound(a[9], "maxBytes");
  }

  Gpu readGpu(const XML_Char** attributes, base::TextLocation where) {
    auto a = slots(attributes, kGpuSchema, "gpu", where);
    return Gpu{int32(a[0], "id"),
               int32(a[1], "i_chunks"),
               int32(a[2], "o_chunks"),
               int32(a[3], "s_chunks"),
               {},
               where,
               {},
               {}};
  }

  ThreadBlock readThreadBlock(const XML_Char** attributes, base::TextLocation where) {
    auto a = slots(attributes, kTbSchema, "tb", where);
    return ThreadBlock{int32(a[0], "id"), int32(a[1], "send"), int32(a[2], "recv"), int32(a[3], "chan"), {}, where};
  }

  Step readStep(const XML_Char** attributes, base::TextLocation where) {
    auto a = slots(attributes, kStepSchema, "step", where);
    Step step;
    step.where = where;
    step.s = int32(a[0], "s");
    auto type = parseOpType(a[1]);
    if (!type) stop(attributeLocation("type"), "unknown step type \"" + std::string(a[1]) + "\"");
    step.type = *type;
    step.srcOperand = operandBuffer(a[2], "srcbuf");
    step.srcbuf = step.srcOperand ? Buffer::Input : buffer(a[2], "srcbuf");
    step.srcoff = int32(a[3], "srcoff");
    step.dstOperand = operandBuffer(a[4], "dstbuf");
    step.dstbuf = step.dstOperand ? Buffer::Input : buffer(a[4], "dstbuf");
    step.dstoff = int32(a[5], "dstoff");
    step.cnt = int32(a[6], "cnt");
    step.depid = int32(a[7], "depid");
    step.deps = int32(a[8], "deps");
    step.hasdep = flag(a[9], "hasdep");
    const bool compute = step.type == OpType::Compute;
    if (compute && !result_.algorithm.fused)
      stop(attributeLocation("type"), "step type \"cmp\" belongs to fused programs only (coll=\"fused-...\")");
    if (compute != (a[10] != nullptr) || compute != (a[11] != nullptr) || compute != (a[12] != nullptr))
      stop(where, compute ? "a cmp step needs the attributes op, row and nrows"
                          : "op, row and nrows belong to cmp steps only");
    if (compute) {
      auto op = parseComputeOp(a[10]);
      if (!op) stop(attributeLocation("op"), "op must be gemv, embag or gemm, got \"" + std::string(a[10]) + "\"");
      step.op = *op;
      step.row = int32(a[11], "row");
      step.nrows = int32(a[12], "nrows");
    }
    return step;
  }

  std::string source_;
  std::unique_ptr<XML_ParserStruct, ExpatDeleter> parser_;
  ReadResult result_;
  RuntimeLexicalScan lexicalScan_;
  std::optional<Stop> stop_;
  size_t depth_ = 0;
  size_t skipped_ = 0;  // depth inside an unknown element the runtime skips
  bool sawAlgo_ = false;
  bool inLeaf_ = false;  // inside <operand> or <product>
  bool fedAny_ = false;
};

}  // namespace

ReadResult readAlgorithm(const std::string& text, const std::string& sourceName,
                         std::optional<RuntimeLexicalLimits> lexicalLimits) {
  Reader reader(sourceName, lexicalLimits);
  constexpr size_t kPiece = 1 << 20;  // expat takes an int length
  for (size_t at = 0; at < text.size(); at += kPiece)
    reader.feed(text.data() + at, std::min(kPiece, text.size() - at), false);
  reader.feed(nullptr, 0, true);
  return reader.finish();
}

ReadResult readAlgorithmFile(const std::filesystem::path& path, uint64_t maxBytes,
                             std::optional<RuntimeLexicalLimits> lexicalLimits) {
  base::InputStream in(path, maxBytes);
  Reader reader(path.string(), lexicalLimits);
  std::vector<char> block(1 << 20);
  for (;;) {
    size_t got = in.read(block.data(), block.size());
    reader.feed(block.data(), got, got == 0);
    if (got == 0) return reader.finish();
  }
}

}  // namespace ccforge::ir
