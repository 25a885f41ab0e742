#include "verify/rules.hpp"

#include <algorithm>
#include <string>

namespace ccforge::verify {

const std::vector<RuleInfo>& ruleCatalogue() {
  static const std::vector<RuleInfo> rules = {
      {"input.malformed", Check::Format,
       "The file cannot be read as MSCCL-IR (XML syntax, unknown or duplicate elements and attributes, values that are "
       "not numbers)."},
      {"internal.error", Check::Format, "ccforge failed while checking the file (out of memory, or a bug)."},
      {"format.runtime-parser", Check::Format,
       "Text that XML allows but the runtime's hand-written parser rejects or misreads."},
      {"format.executor-header", Check::Format,
       "An <algo> attribute the msccl-executor requires is missing; communicator initialisation fails."},
      {"format.coll-name", Check::Format, "The coll spelling is not accepted by the profile's runtime."},
      {"format.fused-program", Check::Format,
       "A fused computation + collective program (coll=\"fused-...\") checked against a stock MSCCL runtime, whose "
       "parser refuses it; only ccforge-fused runs it."},
      {"format.name-length", Check::Format, "The algorithm name is longer than the runtime keeps."},
      {"format.children", Check::Format,
       "An element has more children than the runtime's parser stores (MAX_SUBS); it overruns its array."},
      {"format.suppression", Check::Format,
       "A ccforge-disable comment names no rule or group of this catalogue; it suppresses nothing."},
      {"limits.channels", Check::Limits, "nchannels or a thread block's chan is outside the runtime's channels."},
      {"limits.nchunksperloop", Check::Limits, "nchunksperloop is not positive."},
      {"limits.ngpus", Check::Limits, "ngpus is not positive or differs from the number of <gpu> elements."},
      {"limits.gpu-id", Check::Limits, "A <gpu> id is out of range, duplicated or missing."},
      {"limits.chunk-counts", Check::Limits,
       "A rank's i_chunks/o_chunks/s_chunks are negative or inconsistent with the collective."},
      {"limits.tb-id", Check::Limits, "Thread block ids of a rank are not dense and unique."},
      {"limits.peer", Check::Limits,
       "A send/recv peer is out of range or the block's own rank, or a step communicates without a peer."},
      {"limits.unsupported-op", Check::Limits,
       "An instruction the profile's kernels are built without (RCCL: rcs, rrs, rrc, rrcs); the call fails at launch."},
      {"limits.cnt", Check::Limits,
       "A step's cnt is negative or above MSCCL_MAX_COUNT - 1, or 0, which the runtime accepts and ccforge does not "
       "analyse."},
      {"limits.dependency", Check::Limits,
       "depid names no thread block, or deps names no step of it (or is negative)."},
      {"limits.depid-int8", Check::Limits,
       "depid does not fit the runtime's int8 field and wraps to another thread block."},
      {"limits.hasdep", Check::Limits,
       "A dependency names a step that publishes no flag; it waits for a later one, or forever."},
      {"limits.nop", Check::Limits,
       "A nop without a dependency, a trailing nop, or an instruction closing a run of nops without its own dependency "
       "(the parser rejects the file)."},
      {"limits.step-numbering", Check::Limits, "Step s attributes are not 0, 1, 2, ... in file order."},
      {"limits.steps-per-tb", Check::Limits, "A thread block has more steps than the runtime stores."},
      {"limits.parser-nodes", Check::Limits,
       "A rank's load of the file stores more XML nodes than the runtime's parser holds (MAX_NODES); the load fails."},
      {"limits.narrowing", Check::Limits,
       "An offset a step uses does not fit the runtime's int16 field; it wraps, and the file fails to load or "
       "addresses another chunk."},
      {"limits.tile-iterations", Check::Limits,
       "The size window admits calls with more tile iterations than the dependency flags count (MSCCL_MAX_ITER); their "
       "waits spin forever."},
      {"limits.tbs-per-rank", Check::Limits, "A rank has more thread blocks than the runtime stores."},
      {"limits.co-residency", Check::Limits,
       "A rank has more thread blocks than can be resident at once; blocks that wait on each other hang."},
      {"limits.tbs-per-channel", Check::Limits,
       "More thread blocks send (or receive) on one channel than the runtime allows."},
      {"limits.bounds", Check::Limits, "A step reads or writes chunks outside its buffer."},
      {"limits.parser-bounds", Check::Limits,
       "A step's offset is outside the chunk count its <gpu> declares (i_chunks, o_chunks, s_chunks), which the "
       "runtime's parser checks before it loads the file."},
      {"limits.fused-reduce", Check::Limits,
       "A chain of re steps the parser fuses into one reduction computes something else than its steps say."},
      {"limits.size-window", Check::Limits, "minBytes/maxBytes select no size."},
      {"limits.call-form", Check::Limits, "The algorithm serves neither in-place nor out-of-place calls."},
      {"limits.collective", Check::Limits,
       "The collective named by coll or --collective is unknown or does not fit the program."},
      {"fused.declaration", Check::Limits,
       "A fused program's operands, product or compute steps are inconsistent: unknown operand, shapes or types that "
       "do not fit the operator, rows that do not split into the input buffer's chunks, or a compute step whose rows "
       "are not the chunks it writes."},
      {"fused.operand-write", Check::Buffers,
       "A step writes, copies or sends an operand; operands are read-only and only compute steps read them."},
      {"fused.partition", Check::Postcondition,
       "The compute steps' row ranges of a rank do not partition its product exactly (a gap or an overlap)."},
      {"fused.double-produce", Check::Races, "A product chunk is produced by more than one compute step."},
      {"fused.unproduced-read", Check::Races, "A step reads a product chunk that no compute step produces."},
      {"fused.producer-order", Check::Races,
       "A step reads a product chunk without its producer happening before it (program order, dependencies, "
       "send/receive)."},
      {"buffers.sendbuf-written", Check::Buffers,
       "A program that serves out-of-place calls writes buffer i, which is then the caller's const send buffer."},
      {"buffers.root-only", Check::Buffers,
       "A non-root rank of an out-of-place reduce or gather touches o, or of a broadcast or scatter touches i: the "
       "buffer NCCL lets it pass as NULL."},
      {"connections.ownership", Check::Connections,
       "Two thread blocks of a rank send (or receive) on one connection and corrupt its FIFO."},
      {"connections.unmatched", Check::Connections, "A connection has a sender without a receiver or the reverse."},
      {"connections.count", Check::Connections,
       "Per tile iteration the two sides of a connection move different numbers of transfers."},
      {"connections.cnt", Check::Connections, "Paired send and receive steps move different cnt."},
      {"race.write-write", Check::Races, "Two unordered writes to one chunk."},
      {"race.write-read", Check::Races, "A write and an unordered later read of one chunk."},
      {"race.read-write", Check::Races, "A read and an unordered later write of one chunk."},
      {"race.within-step", Check::Races,
       "One step reads and writes the same memory shifted (overlapping, not identical ranges)."},
      {"race.changes-result", Check::Races, "An interleaving of a race changes an output (SMT engine)."},
      {"postcondition.wrong-chunk", Check::Postcondition,
       "An output chunk does not hold what the collective requires."},
      {"postcondition.interleaving", Check::Postcondition,
       "Some interleaving leaves an output chunk wrong (SMT engine)."},
      {"deadlock.cycle", Check::Deadlock,
       "Thread blocks wait for each other in a cycle under the runtime's FIFO slots."},
      {"deadlock.starvation", Check::Deadlock, "A thread block waits for something that never comes."},
      {"deadlock.stuck-state", Check::Deadlock,
       "The SMT engine found a reachable state where no thread block can move."},
      {"engines.disagree", Check::Deadlock,
       "The simulation and the SMT engine disagree, or an SMT witness does not replay."},
      {"selection.ambiguous", Check::Selection,
       "Two files of a directory both accept some call under one of the profile's selectors (the call then depends on "
       "file order)."},
      {"selection.shadowed", Check::Selection,
       "Under a selector with a fixed file order, earlier files take every call a file accepts: it is never selected."},
      {"selection.dead", Check::Selection,
       "No call of any count, data type or call form passes a file's selection tests under a selector (a warning)."},
      {"selection.stops-loading", Check::Selection,
       "A file the executor's header reader refuses: its internal scheduler stops reading the directory there, and "
       "the files after it in path order never load."},
      {"selection.stray-file", Check::Selection,
       "A directory entry that is not an algorithm file, which the runtime nevertheless reads as one."},
      {"selection.too-many-files", Check::Selection,
       "The directory holds more algorithm files than the runtime loads."},
  };
  return rules;
}

const RuleInfo* findRule(std::string_view id) {
  const auto& rules = ruleCatalogue();
  auto it = std::find_if(rules.begin(), rules.end(), [&](const RuleInfo& r) { return r.id == id; });
  return it == rules.end() ? nullptr : &*it;
}

bool namesRuleOrGroup(std::string_view pattern) {
  if (findRule(pattern)) return true;
  for (const RuleInfo& r : ruleCatalogue())
    if (patternCovers(pattern, r.id)) return true;
  return false;
}

bool patternCovers(std::string_view pattern, std::string_view rule) {
  return rule == pattern || (rule.size() > pattern.size() && rule.starts_with(pattern) && rule[pattern.size()] == '.');
}

std::string_view toolVersion() { return CCFORGE_VERSION; }
std::string_view projectUrl() { return CCFORGE_PROJECT_URL; }

std::string ruleHelpUri(std::string_view id) { return std::string(projectUrl()) + "/blob/main/" + ruleHelpPath(id); }

std::string ruleHelpPath(std::string_view id) {
  std::string anchor(id);
  std::replace(anchor.begin(), anchor.end(), '.', '-');
  return "docs/verify.md#rule-" + anchor;
}

}  // namespace ccforge::verify
