#include <expat.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <memory>

#include "kernel_oracle_program.hpp"

namespace ccforge::property::oracle {
namespace {

// The XML as elements with attributes; the structure is checked while building the program.
struct Element {
  std::string name;
  std::map<std::string, std::string> attributes;
  std::vector<Element> children;
};

struct Reader {
  std::vector<Element*> open;
  Element root;
  static void start(void* self, const char* name, const char** attributes) {
    auto* r = static_cast<Reader*>(self);
    Element e{name, {}, {}};
    for (int i = 0; attributes[i]; i += 2) e.attributes[attributes[i]] = attributes[i + 1];
    Element& parent = r->open.empty() ? r->root : *r->open.back();
    parent.children.push_back(std::move(e));
    r->open.push_back(&parent.children.back());
  }
  static void end(void* self, const char*) { static_cast<Reader*>(self)->open.pop_back(); }
};

Element readXml(const std::string& xml) {
  Reader reader;
  XML_Parser p = XML_ParserCreate(nullptr);
  XML_SetUserData(p, &reader);
  XML_SetElementHandler(p, &Reader::start, &Reader::end);
  const bool ok = XML_Parse(p, xml.data(), static_cast<int>(xml.size()), 1) == XML_STATUS_OK;
  XML_ParserFree(p);
  if (!ok || reader.root.children.size() != 1) throw Refusal("not well-formed XML");
  return std::move(reader.root.children.front());
}

int32_t intAttribute(const Element& e, const std::string& name) {
  const auto it = e.attributes.find(name);
  if (it == e.attributes.end()) throw Refusal("<" + e.name + "> lacks " + name);
  // As the parser reads numbers: strtol(str, NULL, 0) (msccl_parser.h:75-80), so "0x1" and "+1" are 1.
  return static_cast<int32_t>(std::strtol(it->second.c_str(), nullptr, 0));
}
std::string attribute(const Element& e, const std::string& name) {
  const auto it = e.attributes.find(name);
  if (it == e.attributes.end()) throw Refusal("<" + e.name + "> lacks " + name);
  return it->second;
}

int32_t bufferOf(const std::string& name, bool fused) {
  if (name == "i") return In;
  if (name == "o") return Out;
  if (name == "s") return Scratch;
  if (name == "w" && fused) return Operands;
  throw Refusal("unknown buffer " + name);
}

Kind kindOf(const std::string& type, bool fused) {
  static const std::map<std::string, Kind> kinds{{"s", Kind::Send},
                                                 {"r", Kind::Recv},
                                                 {"rcs", Kind::RecvCopySend},
                                                 {"rrs", Kind::RecvReduceSend},
                                                 {"rrc", Kind::RecvReduceCopy},
                                                 {"rrcs", Kind::RecvReduceCopySend},
                                                 {"cpy", Kind::Copy},
                                                 {"re", Kind::Reduce}};
  if (type == "cmp" && fused) return Kind::Compute;
  const auto it = kinds.find(type);
  if (it == kinds.end()) throw Refusal("unknown step type " + type);
  return it->second;
}

// The parser's loop over one <tb>'s steps (msccl_parser.cc:458-655).
Block readBlock(const Element& tb, bool fused, int32_t maxSteps) {
  Block b;
  b.bid = intAttribute(tb, "id");
  b.sendPeer = intAttribute(tb, "send");
  b.recvPeer = intAttribute(tb, "recv");
  b.channel = intAttribute(tb, "chan");
  std::vector<std::pair<int32_t, int32_t>> pending;  // dependencies not yet attached
  int32_t oldDstBuf = -1, oldDstOff = -1, oldSrcBuf = -1, reductions = 0;
  for (const Element& st : tb.children) {
    if (st.name != "step") continue;
    const std::string type = attribute(st, "type");
    const int32_t srcBuf = bufferOf(attribute(st, "srcbuf"), fused), dstBuf = bufferOf(attribute(st, "dstbuf"), fused);
    const int32_t srcOff = intAttribute(st, "srcoff"), dstOff = intAttribute(st, "dstoff");
    const int32_t count = intAttribute(st, "cnt"), depid = intAttribute(st, "depid"), deps = intAttribute(st, "deps");
    const int32_t hasdep = intAttribute(st, "hasdep");
    const int32_t s = intAttribute(st, "s");
    if (s < 0 || s >= maxSteps)
      throw Refusal("step s=" + std::to_string(s) + " out of 0.." + std::to_string(maxSteps - 1));
    if (depid >= 0) pending.emplace_back(depid, deps);
    if (type == "nop") continue;
    const Kind kind = kindOf(type, fused);
    bool continuation = false;
    if (kind == Kind::Reduce) {
      if (oldDstBuf == dstBuf && oldDstOff == dstOff && oldSrcBuf == srcBuf && depid == -1)
        continuation = true;
      else
        oldDstBuf = oldDstOff = -1;
    }
    if (!continuation) b.transmissions.emplace_back();
    Transmission& t = b.transmissions.back();
    t.kind = kind;
    t.srcBuf = srcBuf, t.srcOff = srcOff, t.dstBuf = dstBuf, t.dstOff = dstOff;
    if (count < 0 || count >= kMaxCount) throw Refusal("cnt " + std::to_string(count) + " out of 0..71");
    t.count = count;
    if ((sends(kind) && b.sendPeer < 0) || (receives(kind) && b.recvPeer < 0))
      throw Refusal("a transfer in a block without its peer");
    if (!continuation) {
      t.dependences = pending;
      if (!pending.empty() && depid < 0) throw Refusal("nop dependencies followed by a step without one");
      pending.clear();
    }
    if (kind != Kind::Reduce) {
      oldDstBuf = oldDstOff = oldSrcBuf = -1;
    } else {
      if (!continuation) t.reductionSrcOffsets.clear();
      t.reductionSrcOffsets.push_back(srcOff);
      ++reductions;
      if (hasdep || reductions == kMaxReduceFusion) {
        oldDstBuf = oldDstOff = -1;
      } else {
        oldDstBuf = dstBuf, oldDstOff = dstOff, oldSrcBuf = srcBuf;
      }
    }
    if (hasdep != 0 && hasdep != 1) throw Refusal("hasdep not 0 or 1");
    t.hasDependence = hasdep == 1;
  }
  return b;
}

// The kernel gathers a transmission's reduction sources into T* srcs[MSCCL_MAX_REDUCE_FUSION + 1]
// (msccl_kernel.cu:289-297): LL and LL128 reduce them all, so 17 at most; Simple appends the
// destination and reduces the first MSCCL_MAX_REDUCE_FUSION operands (prims_simple.h:527-531), so
// a 16th source drops the destination's value, and a 17th is written past the array.
void checkReductionSources(const OracleProgram& p, const std::string& proto) {
  const size_t capacity = proto == "Simple" ? kMaxReduceFusion - 1 : kMaxReduceFusion + 1;
  for (const Rank& r : p.ranks)
    for (const Block& b : r.blocks)
      for (const Transmission& t : b.transmissions)
        if (t.reductionSrcOffsets.size() > capacity)
          throw Refusal("a reduction of " + std::to_string(t.reductionSrcOffsets.size()) +
                        " sources overflows the kernel's source array (" + std::to_string(capacity) + ")");
}

OracleProgram readProgram(const Element& algo, ParsedProgram& out, int32_t maxSteps) {
  OracleProgram p;
  if (algo.name != "algo") throw Refusal("the root is not <algo>");
  p.ngpus = intAttribute(algo, "ngpus");
  const std::string coll = attribute(algo, "coll");
  p.fused = coll.starts_with("fused-");
  out.collective = p.fused ? coll.substr(6) : coll;
  out.proto = attribute(algo, "proto");
  out.inPlace = intAttribute(algo, "inplace") == 1;
  out.outOfPlace = algo.attributes.count("outofplace") ? intAttribute(algo, "outofplace") == 1 : !out.inPlace;
  if (p.ngpus < 1 || p.ngpus > 64) throw Refusal("ngpus out of range for the oracle");
  p.ranks.resize(static_cast<size_t>(p.ngpus));
  std::vector<bool> seen(p.ranks.size(), false);
  for (const Element& g : algo.children) {
    if (g.name != "gpu") continue;
    const int32_t id = intAttribute(g, "id");
    if (id < 0 || id >= p.ngpus || seen[static_cast<size_t>(id)]) throw Refusal("bad or repeated gpu id");
    seen[static_cast<size_t>(id)] = true;
    Rank& r = p.ranks[static_cast<size_t>(id)];
    r.id = id;
    r.scratchChunks = intAttribute(g, "s_chunks");
    for (const Element& tb : g.children)
      if (tb.name == "tb") r.blocks.push_back(readBlock(tb, p.fused, maxSteps));
  }
  if (std::find(seen.begin(), seen.end(), false) != seen.end()) throw Refusal("a gpu is missing");
  checkReductionSources(p, out.proto);
  return p;
}

}  // namespace

ParsedProgram parse(const std::string& xml, int32_t maxSteps) {
  ParsedProgram out;
  try {
    out.program = std::make_shared<const OracleProgram>(readProgram(readXml(xml), out, maxSteps));
  } catch (const Refusal& e) {
    out.refusal = e.what();
  }
  return out;
}

}  // namespace ccforge::property::oracle
