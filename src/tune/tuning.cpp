#include "tune/tuning.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <stdexcept>

#include "ir/names.hpp"
#include "semantics/protocol.hpp"
#include "semantics/runtime_profile.hpp"
#include "semantics/selection.hpp"
#include "sim/size_sweep.hpp"

namespace ccforge::tune {
namespace {

bool isPowerOfTwo(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

// "1K", "64M", "4G", "512".
std::string sizeLabel(uint64_t bytes) {
  const char* units[] = {"", "K", "M", "G", "T"};
  size_t u = 0;
  while (u + 1 < std::size(units) && bytes >= 1024 && bytes % 1024 == 0) {
    bytes /= 1024;
    ++u;
  }
  return fmt::format("{}{}", bytes, units[u]);
}

// The header with no size window and its call forms as the file declares them: the selectors'
// divisibility and call-form tests alone.
ir::Algorithm openedHeader(const ir::Algorithm& header) {
  ir::Algorithm open = header;
  open.gpus.clear();
  open.minBytes = 0;
  open.maxBytes = 0;
  if (!open.outofplace) open.outofplace = open.servesOutOfPlace();
  if (!open.inplace) open.inplace = false;
  return open;
}

// Whether every power-of-two call of `form` with callBytes in [low, high) that the executor's
// selectors pass reaches the header's divisibility and call-form tests with success.
bool servesAll(const ir::Algorithm& header, semantics::CallForm form, uint64_t low, uint64_t high) {
  const ir::Algorithm open = openedHeader(header);
  bool any = false;
  for (semantics::Selector s : semantics::executorProfile().selectors)
    for (const semantics::SelectionCall& call : consideredCalls(s, header.coll, header.ngpus)) {
      if (call.form != form) continue;
      const uint64_t bytes = callBytes(call);
      if (bytes < low || bytes >= high) continue;
      any = true;
      if (!accepts(s, open, call)) return false;
    }
  return any;
}

std::string formName(semantics::CallForm f) { return f == semantics::CallForm::InPlace ? "in-place" : "out-of-place"; }

// Which calls of [low, 2 low) a header leaves unserved, exactly: "with nchunksperloop=16 it serves
// 8-byte elements (count 8) under the msccl-scheduler plugin only for counts that are multiples of 16".
std::string unservedText(const ir::Algorithm& header, semantics::CallForm form, uint64_t low) {
  const semantics::SizeWindow compiled = semantics::sizeWindowOf(header);
  if (!compiled.contains(static_cast<int64_t>(low)) || !compiled.contains(static_cast<int64_t>(2 * low - 1)))
    return fmt::format("its compiled window {} does not hold all of {}..{} bytes",
                       windowText(semantics::Selector::Internal, header), low, 2 * low - 1);
  const ir::Algorithm open = openedHeader(header);
  std::vector<std::string> parts;
  for (semantics::Selector s : semantics::executorProfile().selectors)
    for (const semantics::SelectionCall& call : consideredCalls(s, header.coll, header.ngpus)) {
      const uint64_t bytes = callBytes(call);
      if (call.form != form || bytes < low || bytes >= 2 * low || accepts(s, open, call)) continue;
      // The divisibility test: count (plugin) or count x ranks (internal scheduler) by nchunksperloop.
      const uint64_t n = static_cast<uint64_t>(std::max(header.nchunksperloop, 1));
      const uint64_t multiplier =
          s == semantics::Selector::Internal ? semantics::sizeMultiplier(call.coll, call.ranks) : 1;
      const uint64_t needed = n / std::gcd(n, multiplier);
      parts.push_back(fmt::format(
          "{}-byte elements (count {}) under {}, which takes counts that are multiples of {}", call.typeSize,
          call.count, s == semantics::Selector::Internal ? "the internal scheduler" : "the msccl-scheduler plugin",
          needed));
    }
  std::string text = fmt::format("with nchunksperloop={} it does not serve ", header.nchunksperloop);
  for (size_t k = 0; k < parts.size(); ++k) text += (k == 0 ? "" : "; ") + parts[k];
  return parts.empty() ? fmt::format("nchunksperloop={} serves no call there", header.nchunksperloop) : text;
}

}  // namespace

double algbwGBps(uint64_t bytes, double timeUs) { return static_cast<double>(bytes) / (timeUs * 1000.0); }

std::string whyNoWindow(const CollectiveTuning& t, size_t candidate) {
  if (std::any_of(t.windows.begin(), t.windows.end(), [&](const Window& w) { return w.candidate == candidate; }))
    return "";
  const Evaluation& e = t.evaluations[candidate];
  const ir::Algorithm& a = t.set.candidates[candidate].algorithm;
  std::optional<size_t> firstSimulated, best;  // best: the served size with the largest share of the gain needed
  bool beats = false;
  for (size_t i = 0; i < t.sizes.size(); ++i) {
    if (!e.timeUs[i]) continue;
    if (!firstSimulated) firstSimulated = i;
    if (!e.serves[0][i] && !e.serves[1][i]) continue;
    const double share = t.nccl[i].timeUs / *e.timeUs[i] / t.requiredGain[i];
    beats = beats || share >= 1;
    if (!best || share > t.nccl[*best].timeUs / *e.timeUs[*best] / t.requiredGain[*best]) best = i;
  }
  if (!firstSimulated)
    return e.simulationError.empty() ? "it was simulated at no size of " + sizeLabel(t.sizes.front()) + ".." +
                                           sizeLabel(t.sizes.back()) + " (its compiled window holds none)"
                                     : "it could not be simulated: " + e.simulationError;
  if (!best) {
    // The first call it leaves unserved is enough to say why; the report's size table has the rest.
    std::string unserved =
        unservedText(a, a.servesInPlace() ? semantics::CallForm::InPlace : semantics::CallForm::OutOfPlace,
                     t.sizes[*firstSimulated]);
    if (const size_t cut = unserved.find("; "); cut != std::string::npos) unserved = unserved.substr(0, cut) + "; ...";
    return "the runtime selects it for no size it was simulated at (at " + sizeLabel(t.sizes[*firstSimulated]) + ": " +
           unserved + ")";
  }
  if (!beats)
    return fmt::format(
        "at no size it serves is it predicted to beat NCCL by the gain needed there (at best {:.2f} of "
        "it, at {})",
        t.nccl[*best].timeUs / *e.timeUs[*best] / t.requiredGain[*best], sizeLabel(t.sizes[*best]));
  return "where it beats NCCL by the gain needed, another candidate is predicted faster";
}

std::vector<uint64_t> tunedSizes(const TuneOptions& o) {
  if (!isPowerOfTwo(o.minBytes) || !isPowerOfTwo(o.maxBytes) || o.minBytes > o.maxBytes ||
      o.maxBytes > (uint64_t{1} << 40))
    throw std::invalid_argument(
        fmt::format("the tuned range must run between powers of two up to 1 TiB, low end first (got {}..{} bytes)",
                    o.minBytes, o.maxBytes));
  std::vector<uint64_t> sizes;
  for (uint64_t b = o.minBytes; b <= o.maxBytes; b *= 2) sizes.push_back(b);
  return sizes;
}

ir::Algorithm windowedProgram(const CollectiveTuning& t, const Window& w) {
  ir::Algorithm a = t.set.candidates[w.candidate].algorithm;
  a.inplace = w.form == semantics::CallForm::InPlace;
  a.outofplace = w.form == semantics::CallForm::OutOfPlace;
  a.minBytes = w.minBytes;
  a.maxBytes = w.maxBytes;
  return a;
}

CollectiveTuning tuneCollective(const topo::Topology& topology, semantics::CollectiveType collective, CandidateSet set,
                                const TuneOptions& options) {
  CollectiveTuning t;
  t.collective = collective;
  t.ranks = static_cast<int32_t>(topology.gpus().size());
  t.sizes = tunedSizes(options);
  t.set = std::move(set);
  const size_t n = t.sizes.size();

  const sim::ModelParameters parameters = sim::modelParameters(topology, options.arch);
  const sim::NcclSetup nccl = sim::ncclSetup(topology, parameters);
  for (uint64_t b : t.sizes) {
    t.nccl.push_back(sim::ncclChoice(nccl, {.collective = collective, .bytes = b}));
    t.requiredGain.push_back(parameters.gainNeeded(b, options.margin));
  }

  for (const Candidate& c : t.set.candidates) {
    Evaluation e;
    const semantics::SizeWindow compiled = semantics::sizeWindowOf(c.algorithm);
    sim::SizeSweep sweep = sim::sweepSizes(c.algorithm, c.source, topology, options.arch, compiled, t.sizes);
    e.timeUs = std::move(sweep.timeUs);
    e.simulationError = std::move(sweep.error);
    for (semantics::CallForm f : kForms) {
      std::vector<bool>& serves = e.serves[formIndex(f)];
      serves.assign(n, false);
      for (size_t i = 0; i < n; ++i) {
        // The whole cell [size, 2 size) must lie inside the compiled window.
        const int64_t low = static_cast<int64_t>(t.sizes[i]);
        if (!compiled.contains(low) || !compiled.contains(2 * low - 1)) continue;
        serves[i] = servesAll(c.algorithm, f, t.sizes[i], 2 * t.sizes[i]);
      }
    }
    t.evaluations.push_back(std::move(e));
  }

  // Per form and size: the fastest candidate that serves the size and beats NCCL by the margin.
  for (semantics::CallForm f : kForms) {
    const size_t fi = formIndex(f);
    t.chosen[fi].assign(n, std::nullopt);
    std::vector<std::vector<size_t>> unservedWins(t.set.candidates.size());  // sizes a candidate would have won
    for (size_t i = 0; i < n; ++i) {
      std::optional<size_t> best, bestAny;
      for (size_t c = 0; c < t.set.candidates.size(); ++c) {
        const std::optional<double>& time = t.evaluations[c].timeUs[i];
        if (!time || *time * t.requiredGain[i] > t.nccl[i].timeUs) continue;
        const ir::Algorithm& a = t.set.candidates[c].algorithm;
        const bool formOk = f == semantics::CallForm::InPlace ? a.servesInPlace() : a.servesOutOfPlace();
        if (formOk && (!bestAny || *time < *t.evaluations[*bestAny].timeUs[i])) bestAny = c;
        if (t.evaluations[c].serves[fi][i] && (!best || *time < *t.evaluations[*best].timeUs[i])) best = c;
      }
      t.chosen[fi][i] = best;
      if (bestAny && bestAny != best) unservedWins[*bestAny].push_back(i);
    }
    for (size_t c = 0; c < unservedWins.size(); ++c) {
      if (unservedWins[c].empty()) continue;
      const ir::Algorithm& a = t.set.candidates[c].algorithm;
      std::string sizesText;
      for (size_t i : unservedWins[c]) sizesText += (sizesText.empty() ? "" : ", ") + sizeLabel(t.sizes[i]);
      t.notes.push_back(
          fmt::format("{} {}: {} would be the fastest at {}, but {}; those sizes go to the next "
                      "candidate or NCCL",
                      ir::collectiveName(irKindOf(collective)), formName(f), t.set.candidates[c].name, sizesText,
                      unservedText(a, f, t.sizes[unservedWins[c].front()])));
    }
    // Runs of one winner become windows.
    for (size_t i = 0; i < n;) {
      if (!t.chosen[fi][i]) {
        ++i;
        continue;
      }
      size_t j = i;
      while (j + 1 < n && t.chosen[fi][j + 1] == t.chosen[fi][i]) ++j;
      Window w;
      w.form = f;
      w.candidate = *t.chosen[fi][i];
      w.firstSize = i;
      w.lastSize = j;
      w.minBytes = static_cast<int64_t>(t.sizes[i]);
      w.maxBytes = static_cast<int64_t>(2 * t.sizes[j] - 1);
      w.file = fmt::format("{}-{}-{}-{}.xml", ir::collectiveName(irKindOf(collective)),
                           f == semantics::CallForm::InPlace ? "ip" : "oop", t.set.candidates[w.candidate].id,
                           sizeLabel(t.sizes[i]));
      t.windows.push_back(w);
      i = j + 1;
    }
  }
  return t;
}

}  // namespace ccforge::tune
