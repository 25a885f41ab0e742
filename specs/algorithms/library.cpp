#include "library.hpp"

#include "semantics/protocol.hpp"

#include <algorithm>
#include <charconv>
#include <stdexcept>

#include "base/limits.hpp"

#include "algorithms.hpp"
#include "support.hpp"

namespace ccforge::algorithms {
namespace {

Parameter ranks(int64_t def = 8) { return {"ranks", def, "number of ranks (GPUs)", 2}; }
Parameter instances() {
  return {"instances", 1, "replicas of the whole program, each on its own channels", 1, semantics::kMaxChannels};
}
Parameter channels() {
  return {"channels", 1, "channels per ring: chunk i uses channel i mod channels", 1, semantics::kMaxChannels};
}
// hierarchical-allreduce's defaults (docs/dsl-guide.md, "The library"). Up to 32 chunks (nodes x
// gpus): every chunk on a channel of its own, as msccl-tools' `auto` schedule places them, and as
// many replicas as the runtime's 32 channels hold. At one channel and one instance the whole
// buffer crosses each link on one channel: 7-18x slower in simulation than msccl-tools'
// hierarchical_allreduce.py (issue 32, item 6). With more chunks than channels, chunks would
// share channels, and the rings of two chunks on one channel can need one thread block with two
// receive peers (16 x 3, 32 x 8): there the default stays one transfer per group on the
// compiler's channels, one instance.
Parameter hierarchicalChannels() {
  return {"channels",
          0,
          "channels the rings spread over, chunk i on channel i mod channels (1: one transfer per group, channels "
          "assigned by the compiler); default: nodes x gpus up to 32, else 1",
          0,
          semantics::kMaxChannels,
          true};
}
Parameter hierarchicalInstances() {
  return {"instances",
          0,
          "replicas of the whole program, each on its own channels; default: as many as 32 channels hold (1 when "
          "channels is 1)",
          0,
          semantics::kMaxChannels,
          true};
}
void chooseHierarchicalDefaults(Arguments& a) {
  const int64_t chunks = a.at("nodes") * a.at("gpus");
  if (a.at("channels") == 0) a["channels"] = chunks <= semantics::kMaxChannels ? chunks : 1;
  if (a.at("instances") == 0)
    a["instances"] = a.at("channels") > 1 ? std::max<int64_t>(1, semantics::kMaxChannels / a.at("channels")) : 1;
}
Parameter nodes() { return {"nodes", 2, "number of nodes", 1}; }
Parameter gpus() { return {"gpus", 4, "GPUs per node", 1}; }
Parameter inplace() { return {"inplace", 1, "1: in-place call (output aliases input), 0: out-of-place", 0, 1}; }
Parameter root() { return {"root", 0, "root rank", 0}; }
Parameter boxes() {
  return {"boxes", 1,
          "boxes the ranks fill in order; with more, channel c's ring enters each box at its c-th rank (other rails)",
          1};
}
Parameter split() {
  return {"split", 0,
          "1: every channel runs a whole ring over its own share of the buffer (NCCL's split); 0: chunk i on channel i "
          "mod channels",
          0, 1};
}
Parameter chunks() { return {"chunks", 1, "chunks the buffer is cut into (pipelining)", 1, 1024}; }

// A ring with chunk i on channel i mod channels: a rank's thread block of one channel handles
// k = ceil(ranks / channels) chunks (split: ranks), one (fused) step each per pass around the ring. Allreduce
// makes two passes, the first chunk's two fusing on a single channel (2k - 1 steps, 2k on more).
int64_t ringChunksPerChannel(const Arguments& a) {
  const int64_t n = a.at("ranks"), c = a.at("channels");
  return a.at("split") != 0 ? n : (n + c - 1) / c;  // split: every channel runs a whole ring
}
int64_t ringAllReduceSteps(const Arguments& a) { return 2 * ringChunksPerChannel(a) - (a.at("channels") == 1 ? 1 : 0); }
int64_t ringOnePassSteps(const Arguments& a) { return ringChunksPerChannel(a); }
// All-pairs: every other rank, per instance. Two-step alltoall: the node's other GPUs, and the
// GPU with the same local index on every other node.
int64_t allPairsSendPeers(const Arguments& a) { return (a.at("ranks") - 1) * a.at("instances"); }
int64_t twoStepSendPeers(const Arguments& a) { return (a.at("gpus") - 1) + (a.at("nodes") - 1); }

std::string describeSettings(const LibraryEntry& entry, const Arguments& arguments) {
  std::string settings = entry.name;
  for (const auto& [key, value] : arguments) settings += " " + key + "=" + std::to_string(value);
  return settings;
}

void requireResidentThreadBlocks(const LibraryEntry& entry, const Arguments& arguments,
                                 const semantics::RuntimeProfile& profile) {
  if (!entry.sendPeersPerRank) return;
  const int64_t peers = entry.sendPeersPerRank(arguments);
  const int32_t limit = semantics::residentThreadBlocksPerRank(profile);
  if (peers <= limit) return;
  const int32_t legacy = semantics::residentThreadBlocksPerRank(semantics::legacyProfile());
  const std::string fix = peers <= legacy && profile.name != semantics::legacyProfile().name
                              ? "--profile " + semantics::legacyProfile().name + " (" + std::to_string(legacy) +
                                    " thread blocks per rank) or fewer ranks"
                              : "fewer ranks";
  throw base::LimitExceeded(
      describeSettings(entry, arguments) + ": every rank would send to " + std::to_string(peers) +
      " peers (replicas counted), one thread block each; " + profile.name + " allows " + std::to_string(limit) +
      " thread blocks per rank (all of a rank's thread blocks must be resident at once). Use " + fix);
}

}  // namespace

void requireFits(const LibraryEntry& entry, const Arguments& arguments, const semantics::RuntimeProfile& profile) {
  requireResidentThreadBlocks(entry, arguments, profile);
  if (!entry.busiestThreadBlockSteps) return;
  const int64_t steps = entry.busiestThreadBlockSteps(arguments);
  const int32_t limit = profile.maxStepsPerThreadBlock;
  if (steps <= limit) return;
  std::string fix;
  if (arguments.contains("channels")) {
    for (int64_t c = arguments.at("channels") + 1; c <= semantics::kMaxChannels && fix.empty(); ++c) {
      Arguments more = arguments;
      more["channels"] = c;
      if (entry.busiestThreadBlockSteps(more) <= limit) fix = "channels=" + std::to_string(c);
    }
  }
  if (fix.empty() && steps <= semantics::legacyProfile().maxStepsPerThreadBlock &&
      profile.name != semantics::legacyProfile().name)
    fix = "--profile " + semantics::legacyProfile().name + " (" +
          std::to_string(semantics::legacyProfile().maxStepsPerThreadBlock) + " steps per thread block)";
  if (fix.empty()) fix = "fewer ranks";
  throw base::LimitExceeded(describeSettings(entry, arguments) + ": its busiest thread block would need " +
                            std::to_string(steps) + " steps; " + profile.name + " allows " + std::to_string(limit) +
                            " per thread block (MSCCL_MAX_NUM_STEPS). Use " + fix);
}

const std::vector<LibraryEntry>& library() {
  using ir::Protocol;
  static const std::vector<LibraryEntry> entries{
      {"ring-allreduce",
       "ring reduce-scatter then ring allgather; chunk i on channel i mod channels",
       {ranks(), channels(), instances(), inplace(), boxes(), split()},
       Protocol::LL128,
       "msccl-executor",
       ringAllReduce,
       ringAllReduceSteps},
      {"hierarchical-allreduce",
       "intra-node ring reduce-scatter, inter-node ring reduce-scatter and allgather, intra-node ring allgather "
       "(MSCCLang paper §2)",
       {nodes(), gpus(), hierarchicalChannels(), hierarchicalInstances()},
       Protocol::Simple,
       "msccl-executor",
       hierarchicalAllReduce,
       nullptr,
       chooseHierarchicalDefaults},
      {"allpairs-allreduce",
       "every rank reduces its chunk from all others' scratch copies, then sends it to all",
       {ranks(), instances(), inplace()},
       Protocol::LL,
       "msccl-executor",
       allPairsAllReduce,
       nullptr,
       nullptr,
       allPairsSendPeers},
      {"recursive-halving-doubling-allreduce",
       "reduce-scatter by vector halving/distance doubling, allgather by vector doubling/distance halving",
       {ranks(), instances()},
       Protocol::LL,
       "msccl-executor",
       recursiveHalvingDoublingAllReduce},
      {"ring-allgather",
       "each rank's chunk travels once around the ring",
       {ranks(), channels(), instances(), inplace(), boxes(), split()},
       Protocol::LL128,
       "msccl-executor",
       ringAllGather,
       ringOnePassSteps},
      {"allpairs-allgather",
       "each rank sends its chunk to every other rank",
       {ranks(), instances(), inplace()},
       Protocol::LL128,
       "msccl-executor",
       allPairsAllGather,
       nullptr,
       nullptr,
       allPairsSendPeers},
      {"recursive-doubling-allgather",
       "ranks exchange doubling blocks with the rank 1, 2, 4, ... away",
       {ranks(), instances(), inplace()},
       Protocol::Simple,
       "msccl-executor",
       recursiveDoublingAllGather},
      {"ring-reducescatter",
       "chunk i is reduced around the ring and ends on rank i",
       {ranks(), channels(), instances(), inplace(), boxes(), split()},
       Protocol::LL128,
       "msccl-executor",
       ringReduceScatter,
       ringOnePassSteps},
      {"allpairs-alltoall",
       "every rank sends each chunk straight to its destination",
       {ranks(), instances()},
       Protocol::Simple,
       "msccl-executor",
       allPairsAllToAll,
       nullptr,
       nullptr,
       allPairsSendPeers},
      {"two-step-alltoall",
       "gather the chunks for a remote node on the GPU with the destination's local index, then one aggregated "
       "transfer per GPU pair across nodes (MSCCLang paper §7.3)",
       {nodes(), gpus()},
       Protocol::Simple,
       "msccl-executor",
       twoStepAllToAll,
       nullptr,
       nullptr,
       twoStepSendPeers},
      {"three-step-alltoall",
       "gather the chunks for a remote node on one GPU, one aggregated transfer per node pair, scatter on the "
       "remote node (MSCCLang paper §7.3)",
       {nodes(), gpus()},
       Protocol::Simple,
       "msccl-executor",
       threeStepAllToAll},
      {"alltonext",
       "rank r's buffer goes to rank r+1; across nodes it is scattered over the node's GPUs, sent in parallel and "
       "gathered (custom collective, MSCCLang paper §7.4)",
       {nodes(), gpus()},
       Protocol::Simple,
       "msccl-legacy",
       allToNext},
      {"binomial-broadcast",
       "binomial tree from the root, chunk by chunk",
       {ranks(), root(), chunks(), inplace()},
       Protocol::Simple,
       "msccl-executor",
       binomialBroadcast},
      {"binomial-reduce",
       "binomial tree towards the root, chunk by chunk",
       {ranks(), root(), chunks(), inplace()},
       Protocol::Simple,
       "msccl-executor",
       binomialReduce},
  };
  return entries;
}

const LibraryEntry* findAlgorithm(std::string_view name) {
  for (const LibraryEntry& e : library())
    if (e.name == name) return &e;
  return nullptr;
}

Arguments resolveArguments(const LibraryEntry& entry, const std::vector<std::string>& settings) {
  Arguments args;
  for (const Parameter& p : entry.parameters) args[p.name] = p.defaultValue;
  std::map<std::string, bool, std::less<>> seen;
  for (const std::string& s : settings) {
    const size_t eq = s.find('=');
    if (eq == std::string::npos) throw std::invalid_argument("expected key=value, got '" + s + "'");
    const std::string key = s.substr(0, eq);
    const std::string text = s.substr(eq + 1);
    const Parameter* param = nullptr;
    for (const Parameter& p : entry.parameters)
      if (p.name == key) param = &p;
    if (!param) {
      std::string known;
      for (const Parameter& p : entry.parameters) known += (known.empty() ? "" : ", ") + p.name;
      throw std::invalid_argument(entry.name + " has no parameter '" + key + "' (it takes " + known + ")");
    }
    if (seen[key]) throw std::invalid_argument("parameter '" + key + "' is given twice");
    seen[key] = true;
    int64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size())
      throw std::invalid_argument("parameter '" + key + "' needs an integer, got '" + text + "'");
    if (value < param->min || value > param->max)
      throw std::invalid_argument("parameter '" + key + "' must be between " + std::to_string(param->min) + " and " +
                                  std::to_string(param->max) + ", got " + text);
    args[key] = value;
  }
  if (entry.chooseDefaults) entry.chooseDefaults(args);
  return args;
}

Instance instantiateOnRings(std::string_view name, const RingOrders& rings, const std::vector<std::string>& settings,
                            std::optional<ir::Protocol> protocol) {
  using Builder = dsl::Program (*)(const Arguments&, const Rings&, ir::Protocol);
  const Builder build = name == "ring-allreduce"       ? ringAllReduceOn
                        : name == "ring-allgather"     ? ringAllGatherOn
                        : name == "ring-reducescatter" ? ringReduceScatterOn
                                                       : nullptr;
  if (!build) throw std::invalid_argument("'" + std::string(name) + "' takes no rings: only the ring algorithms do");
  for (const std::string& s : settings)
    if (s.rfind("channels=", 0) == 0 || s.rfind("boxes=", 0) == 0 || s.rfind("split=", 0) == 0)
      throw std::invalid_argument("'" + s + "': the rings give the channels and their order");
  const LibraryEntry* entry = findAlgorithm(name);
  Arguments args = resolveArguments(*entry, settings);
  args["channels"] = static_cast<int64_t>(rings.size());
  args["split"] = 1;
  const ir::Protocol proto = protocol.value_or(entry->defaultProtocol);
  dsl::Program program = build(args, Rings(rings, static_cast<int32_t>(args.at("ranks"))), proto);
  return Instance{entry, std::move(args), proto, std::move(program)};
}

}  // namespace ccforge::algorithms

namespace ccforge::algorithms {

Instance instantiate(std::string_view name, const std::vector<std::string>& settings,
                     std::optional<ir::Protocol> protocol) {
  const LibraryEntry* entry = findAlgorithm(name);
  if (!entry) {
    std::string known;
    for (const LibraryEntry& e : library()) known += (known.empty() ? "" : ", ") + e.name;
    throw std::invalid_argument("no algorithm '" + std::string(name) + "' in the library (it has " + known + ")");
  }
  Arguments args = resolveArguments(*entry, settings);
  const ir::Protocol proto = protocol.value_or(entry->defaultProtocol);
  dsl::Program program = entry->build(args, proto);
  return Instance{entry, std::move(args), proto, std::move(program)};
}

}  // namespace ccforge::algorithms
