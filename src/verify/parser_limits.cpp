#include "verify/parser_limits.hpp"

#include <fmt/format.h>

#include <bit>
#include <map>

#include "ir/names.hpp"
#include "semantics/parser_nodes.hpp"
#include "semantics/step_kinds.hpp"

namespace ccforge::verify {
namespace {

// mscclXmlLoadSub appends every element it stores to its parent's subs[MAX_SUBS] without a
// bound; an element it skips (another rank's content) is not stored.
void childrenRule(size_t children, int32_t max, base::TextLocation where, const std::string& parent, const char* child,
                  Findings& findings) {
  if (children <= static_cast<size_t>(max)) return;
  findings.error(Check::Format, "format.children", where,
                 fmt::format("{} has {} <{}> elements: the runtime's parser stores {} children per element (MAX_SUBS) "
                             "without checking, so the next ones overwrite the memory after its array",
                             parent, children, child, max));
}

// The parser checks `maxIndex == MAX_NODES` before it reads each node, stored or not: once the
// MAX_NODES-th node is stored, the next read (if only of an end tag) fails the load
// (semantics/parser_nodes.hpp counts what a rank's load stores).
void nodeRule(const ir::Algorithm& algo, const semantics::RuntimeProfile& profile, Findings& findings) {
  const std::vector<int64_t> nodes = semantics::parserNodesPerRank(algo);
  for (const ir::Gpu& g : algo.gpus) {
    if (g.id < 0 || g.id >= algo.ngpus || nodes[static_cast<size_t>(g.id)] <= profile.maxNodesPerLoad) continue;
    int64_t steps = 0;
    for (const ir::ThreadBlock& tb : g.threadBlocks) steps += static_cast<int64_t>(tb.steps.size());
    findings.error(Check::Limits, "limits.parser-nodes", g.where,
                   fmt::format("gpu {}: loading this file on rank {} stores {} XML nodes (1 <algo>, {} <gpu>, {} <tb>, "
                               "{} <step>); {}'s parser holds {} (MAX_NODES = {}, checked before every node it reads) "
                               "and the load fails",
                               g.id, g.id, nodes[static_cast<size_t>(g.id)], algo.gpus.size(), g.threadBlocks.size(),
                               steps, profile.name, profile.maxNodesPerLoad, profile.maxNodesPerLoad + 1));
  }
}

// The value a two's-complement field of `max` = 2^(b-1) - 1 keeps of `value`.
int64_t wrapped(int64_t value, int64_t max) {
  const int64_t range = 2 * (max + 1);
  return ((value + max + 1) % range + range) % range - (max + 1);
}

// msccl_parser.cc stores srcoff/dstoff into int16_t fields (reductionSrcOffsets too) and only
// then runs mscclCheckBufferBounds on the stored value, which accepts -1..chunks-1 (and is not
// run at all for rrc). Only the offsets a step uses matter; the others are stored and ignored.
void narrowingRule(const ir::Gpu& g, const ir::ThreadBlock& tb, int32_t index, const ir::Step& st,
                   const semantics::RuntimeProfile& profile, Findings& findings) {
  auto check = [&](int32_t value, ir::Buffer buffer, const char* attribute, const char* field, const char* verb) {
    const int64_t max = profile.maxStoredOffset;
    if (value >= -(max + 1) && value <= max) return;
    const int64_t w = wrapped(value, max);
    const int32_t chunks = buffer == ir::Buffer::Input    ? g.inputChunks
                           : buffer == ir::Buffer::Output ? g.outputChunks
                                                          : g.scratchChunks;
    std::string consequence;
    if (w >= -1 && w < chunks)
      consequence = fmt::format("which the runtime's bounds check (-1..{}) accepts: the step {} {} instead", chunks - 1,
                                verb, w < 0 ? "the chunk before the buffer" : fmt::format("chunk {}", w));
    else if (st.type == ir::OpType::RecvReduceCopy)
      consequence = fmt::format(
          "outside the {}-chunk buffer, and the runtime does not check rrc offsets: the step {} "
          "memory outside the buffer",
          chunks, verb);
    else
      consequence = fmt::format("outside the runtime's bounds check (-1..{}): the parser rejects the file", chunks - 1);
    findings.error(
        Check::Limits, "limits.narrowing", st.where,
        fmt::format("rank {} tb {} step {}: {}={} is stored by {} in the int{}_t {} and wraps to {}, {}", g.id, tb.id,
                    index, attribute, value, profile.name, std::bit_width(uint64_t(max)) + 1, field, w, consequence));
  };
  if (semantics::readsLocalSource(st.type))
    check(st.srcoff, st.srcbuf, "srcoff",
          st.type == ir::OpType::Reduce ? "srcOffset (and reductionSrcOffsets)" : "srcOffset", "reads");
  if (semantics::writesLocalDestination(st.type)) check(st.dstoff, st.dstbuf, "dstoff", "dstOffset", "writes");
}

}  // namespace

void checkParserStorage(const ir::Algorithm& algo, const semantics::RuntimeProfile& profile, Findings& findings) {
  const int32_t maxChildren = profile.maxChildrenPerElement;
  childrenRule(algo.gpus.size(), maxChildren, algo.where, "<algo>", "gpu", findings);
  nodeRule(algo, profile, findings);
  for (const ir::Gpu& g : algo.gpus) {
    childrenRule(g.threadBlocks.size(), maxChildren, g.where, fmt::format("gpu {}", g.id), "tb", findings);
    for (const ir::ThreadBlock& tb : g.threadBlocks) {
      childrenRule(tb.steps.size(), maxChildren, tb.where, fmt::format("gpu {} tb {}", g.id, tb.id), "step", findings);
      for (size_t i = 0; i < tb.steps.size(); ++i)
        narrowingRule(g, tb, static_cast<int32_t>(i), tb.steps[i], profile, findings);
    }
  }
}

}  // namespace ccforge::verify
