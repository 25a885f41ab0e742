#include "verify/smt/witness_replay.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "verify/layouts.hpp"
#include "verify/smt/data_replay.hpp"
#include "verify/smt/replay.hpp"
#include "verify/step_graph.hpp"

namespace ccforge::verify::smt {
namespace {

using nlohmann::json;

const json& field(const json& j, const char* key, const std::string& where) {
  if (!j.is_object() || !j.contains(key)) throw std::invalid_argument(fmt::format("{}: no '{}'", where, key));
  return j.at(key);
}
int32_t intField(const json& j, const char* key, const std::string& where) {
  const json& v = field(j, key, where);
  if (!v.is_number_integer()) throw std::invalid_argument(fmt::format("{}.{}: not an integer", where, key));
  return v.get<int32_t>();
}
std::string stringField(const json& j, const char* key, const std::string& where) {
  const json& v = field(j, key, where);
  if (!v.is_string()) throw std::invalid_argument(fmt::format("{}.{}: not a string", where, key));
  return v.get<std::string>();
}

}  // namespace

verify::Witness readWitness(std::istream& in) {
  json doc = json::parse(in, nullptr, false);
  if (doc.is_discarded()) throw std::invalid_argument("witness: not JSON");
  const json& j = doc.contains("witness") ? doc.at("witness") : doc;
  verify::Witness w;
  w.kind = stringField(j, "kind", "witness");
  w.query = stringField(j, "query", "witness");
  if (w.kind == "deadlock") {
    const json& c = field(j, "configuration", "witness");
    w.tiles = intField(c, "tiles", "witness.configuration");
    w.maxAllowedCount = intField(c, "max_allowed_count", "witness.configuration");
    w.slots = intField(c, "slots", "witness.configuration");
  } else {
    w.callForm = stringField(j, "call_form", "witness");
    w.slots = intField(j, "slots", "witness");
  }
  const json& schedule = field(j, "schedule", "witness");
  for (size_t i = 0; i < schedule.size(); ++i) {
    const json& e = schedule[i];
    const std::string where = fmt::format("witness.schedule[{}]", i);
    verify::ScheduleEvent ev{intField(e, "rank", where),
                             intField(e, "tb", where),
                             intField(e, "step", where),
                             intField(e, "tile", where),
                             -1,
                             {},
                             -1};
    if (w.kind == "deadlock") {
      ev.unit = intField(e, "unit", where);
    } else {
      ev.action = stringField(e, "action", where);
      ev.chunk = intField(e, "chunk", where);
    }
    w.schedule.push_back(std::move(ev));
  }
  const json& blocked = field(j, "blocked", "witness");
  for (size_t i = 0; i < blocked.size(); ++i) {
    const std::string where = fmt::format("witness.blocked[{}]", i);
    verify::StepRef r;
    r.rank = intField(blocked[i], "rank", where);
    r.tb = intField(blocked[i], "tb", where);
    r.step = intField(blocked[i], "step", where);
    r.tile = intField(blocked[i], "tile", where);
    r.role = stringField(blocked[i], "role", where);
    w.blocked.push_back(std::move(r));
  }
  return w;
}

std::string replayWitness(const semantics::LoadedProgram& index, const std::optional<semantics::Collective>& collective,
                          const std::vector<std::array<int32_t, 3>>& bufferLengths, const verify::Witness& w) {
  const ir::Protocol protocol = index.algorithm().proto;
  if (w.kind == "deadlock") {
    const UnitReplay r =
        replayUnitSchedule(index, protocol, verify::SimulationConfig{w.tiles, w.maxAllowedCount, w.slots}, w.schedule);
    if (!r.ok) return r.error;
    if (r.blocked.size() != w.blocked.size()) return "a different number of thread blocks ends blocked";
    for (size_t i = 0; i < r.blocked.size(); ++i) {
      const verify::StepRef at =
          verify::stepRef(index, index.firstStep(r.blocked[i].tb) + static_cast<uint32_t>(r.blocked[i].step));
      if (at.rank != w.blocked[i].rank || at.tb != w.blocked[i].tb || at.step != w.blocked[i].step ||
          r.blocked[i].tile != w.blocked[i].tile)
        return fmt::format("rank {} tb {} ends blocked elsewhere than the witness says", at.rank, at.tb);
    }
    return {};
  }
  const semantics::CallForm form = w.callForm == callFormName(semantics::CallForm::InPlace)
                                       ? semantics::CallForm::InPlace
                                       : semantics::CallForm::OutOfPlace;
  std::vector<semantics::RankLayout> layouts = verify::rankLayouts(collective, form, bufferLengths);
  semantics::ChunkValues values;
  DataSetting setting(index, layouts, collective, values);
  SyncGraph graph(index, {w.slots > 0 ? verify::backPressureDistance(protocol, w.slots) : 0,
                          verify::BoxLayout::ofRanks(w.boxes, "the witness")});
  const DataReplay r = replayDataSchedule(setting, graph, w.schedule);
  if (!r.ok) return r.error;
  if (w.kind == "wrong-output") {
    for (size_t k = 0; k < r.outputs.size(); ++k)
      if (setting.outputs()[k].expected && r.outputs[k] != *setting.outputs()[k].expected) return {};
    return "every output chunk meets the postcondition";
  }
  const DataReplay reference = replayDataSchedule(setting, graph, atomicSchedule(setting, graph));
  return r.outputs != reference.outputs ? "" : "the outputs are those of the step-by-step interleaving";
}

}  // namespace ccforge::verify::smt
