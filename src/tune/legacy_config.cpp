#include "tune/legacy_config.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <optional>

#include "ir/names.hpp"
#include "semantics/selection.hpp"

namespace ccforge::tune {
namespace {

// Predicted time saved over NCCL, summed over the window's sizes (the config's order).
double savings(const CollectiveTuning& t, const Window& w) {
  double s = 0;
  for (size_t i = w.firstSize; i <= w.lastSize; ++i)
    s += t.nccl[i].timeUs - t.evaluations[w.candidate].timeUs[i].value_or(t.nccl[i].timeUs);
  return s;
}

// The window's program with the legacy header: microsoft/msccl reads coll="reduce_scatter" (topo.cc
// mscclGetAlgoFromXMLAndSetAlgo), one `inplace` flag, and [minBytes, maxBytes) with maxBytes
// exclusive (tuning.cc l.353); the executor's `outofplace` means nothing to it.
ir::Algorithm legacyProgram(const CollectiveTuning& t, const Window& w) {
  ir::Algorithm a = windowedProgram(t, w);
  if (a.coll == ir::CollectiveKind::ReduceScatter) a.collName = "reduce_scatter";
  a.outofplace.reset();
  a.maxBytes = w.maxBytes + 1;
  return a;
}

}  // namespace

LegacyConfig legacyConfig(const CollectiveTuning& t, size_t limit,
                          const std::function<std::string(const ir::Algorithm&)>& refusal) {
  std::vector<size_t> order;
  for (size_t k = 0; k < t.windows.size(); ++k)
    if (t.collective != semantics::CollectiveType::AllToAll || t.windows[k].form != semantics::CallForm::InPlace)
      order.push_back(k);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return savings(t, t.windows[a]) > savings(t, t.windows[b]); });
  LegacyConfig out;
  for (size_t k : order) {
    const Window& w = t.windows[k];
    if (out.loads.size() == limit) {
      out.left.push_back(
          fmt::format("{} (past the {} algorithms the legacy runtime loads, MSCCL_MAX_NUM_ALGOS)", w.file, limit));
      continue;
    }
    ir::Algorithm program = legacyProgram(t, w);
    const std::string why = refusal(program);
    if (!why.empty()) {
      out.left.push_back(fmt::format("{} ({})", w.file, why));
      continue;
    }
    out.loads.push_back({k, std::move(program)});
  }
  return out;
}

std::string legacyConfigXml(const CollectiveTuning& t, const LegacyConfig& config, const std::string& directory) {
  const std::filesystem::path base = std::filesystem::absolute(directory).lexically_normal();
  std::string s = "<msccl_algos>\n";
  for (const LegacyLoad& l : config.loads) {
    const Window& w = t.windows[l.window];
    s += fmt::format("  <load path=\"{}\" minbytes=\"{}\" maxbytes=\"{}\" proto=\"{}\"/>\n", (base / w.file).string(),
                     *l.program.minBytes, *l.program.maxBytes, ir::protocolName(l.program.proto));
  }
  s += "</msccl_algos>\n";
  return s;
}

LegacyCheck checkLegacyConfig(const CollectiveTuning& t, const LegacyConfig& config) {
  LegacyCheck check;
  for (const semantics::SelectionCall& call :
       consideredCalls(semantics::Selector::Legacy, irKindOf(t.collective), t.ranks)) {
    const uint64_t bytes = callBytes(call);
    if (bytes < semantics::kCheckedMinBytes || bytes > semantics::kCheckedMaxBytes) continue;
    std::optional<size_t> intended, chosen;
    for (size_t k = 0; k < config.loads.size(); ++k) {
      const Window& w = t.windows[config.loads[k].window];
      // The legacy alltoall path does not tell the forms apart: its windows are out-of-place ones.
      const bool form = call.coll == ir::CollectiveKind::AllToAll || w.form == call.form;
      if (form && bytes >= static_cast<uint64_t>(w.minBytes) && bytes <= static_cast<uint64_t>(w.maxBytes))
        intended = k;
      if (!chosen && accepts(semantics::Selector::Legacy, config.loads[k].program, call)) chosen = k;
    }
    if (intended) ++check.callsInWindows;
    if (chosen && chosen == intended) ++check.callsServed;
    if (chosen && chosen != intended)
      check.misrouted.push_back(
          fmt::format("{} {} B ({}-byte type): the legacy runtime runs {}, its window's file is {}",
                      callFormName(call.form), bytes, call.typeSize, t.windows[config.loads[*chosen].window].file,
                      intended ? t.windows[config.loads[*intended].window].file : "none (NCCL)"));
  }
  return check;
}

}  // namespace ccforge::tune
