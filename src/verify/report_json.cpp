#include <nlohmann/json.hpp>

#include "base/json_document.hpp"
#include "verify/report_writers.hpp"

namespace ccforge::verify {

using nlohmann::ordered_json;

namespace {

ordered_json stepJson(const StepRef& s) {
  ordered_json j;
  j["rank"] = s.rank;
  j["tb"] = s.tb;
  j["step"] = s.step;
  j["tile"] = s.tile;
  j["line"] = s.where.line;
  j["column"] = s.where.column;
  j["role"] = s.role;
  return j;
}

ordered_json scheduleEventJson(const ScheduleEvent& e) {
  ordered_json j{{"rank", e.rank}, {"tb", e.tb}, {"step", e.step}, {"tile", e.tile}};
  if (e.action.empty()) {
    j["unit"] = e.unit;
  } else {
    j["action"] = e.action;
    j["chunk"] = e.chunk;
  }
  return j;
}

ordered_json violationJson(const Violation& v) {
  ordered_json j;
  j["check"] = checkName(v.check);
  j["severity"] = v.severity == Severity::Error ? "error" : "warning";
  j["rule"] = v.rule;
  j["message"] = v.message;
  j["file"] = v.file;
  j["line"] = v.where.line;
  j["column"] = v.where.column;
  j["steps"] = ordered_json::array();
  for (const StepRef& s : v.steps) j["steps"].push_back(stepJson(s));
  j["evidence"] = v.evidence;
  if (v.suppression)
    j["suppression"] = {{"kind", suppressionKindName(v.suppression->kind)},
                        {"justification", v.suppression->justification}};
  return j;
}

ordered_json witnessJson(const Witness& w) {
  ordered_json j;
  j["kind"] = w.kind;
  j["query"] = w.query;
  if (w.callForm.empty()) {
    j["configuration"] = {{"tiles", w.tiles}, {"max_allowed_count", w.maxAllowedCount}, {"slots", w.slots}};
  } else {
    j["call_form"] = w.callForm;
    j["slots"] = w.slots;
    j["boxes"] = w.boxes;
  }
  j["schedule"] = ordered_json::array();
  for (const ScheduleEvent& e : w.schedule) j["schedule"].push_back(scheduleEventJson(e));
  j["blocked"] = ordered_json::array();
  for (const StepRef& s : w.blocked) j["blocked"].push_back(stepJson(s));
  j["outcome"] = w.outcome;
  j["replay"] = w.replay;
  return j;
}

ordered_json smtJson(const SmtSummary& smt) {
  ordered_json j;
  j["engine"] = smt.engine;
  j["solvers"] = smt.solvers;
  j["queries"] = ordered_json::array();
  for (const SmtQueryRecord& q : smt.queries) {
    ordered_json solvers = ordered_json::array();
    for (const SolverAnswer& a : q.solvers)
      solvers.push_back({{"solver", a.solver}, {"answer", a.answer}, {"reason", a.reason}});
    j["queries"].push_back({{"check", q.check},
                            {"query", q.query},
                            {"answer", q.answer},
                            {"decided_by", q.decidedBy},
                            {"solvers", solvers}});
  }
  j["minimum_slots"] = smt.minimumSlots ? ordered_json(*smt.minimumSlots) : ordered_json();
  j["minimum_slots_proof"] = smt.minimumSlotsProof;
  j["max_tiles_checked"] = smt.maxTilesChecked;
  j["every_tile_count"] = smt.parametric;
  j["witnesses"] = ordered_json::array();
  for (const Witness& w : smt.witnesses) j["witnesses"].push_back(witnessJson(w));
  return j;
}

ordered_json callRangesJson(const std::vector<CallRange>& ranges) {
  ordered_json j = ordered_json::array();
  for (const CallRange& r : ranges)
    j.push_back({{"call_form", r.callForm},
                 {"type_size", r.typeSize},
                 {"count_min", r.countMin},
                 {"count_max", r.countMax},
                 {"bytes_min", r.bytesMin},
                 {"bytes_max", r.bytesMax}});
  return j;
}

ordered_json fileJson(const FileReport& r) {
  ordered_json j;
  j["file"] = r.file;
  j["verdict"] = verdictName(r.verdict);
  j["error"] = r.error.empty() ? ordered_json() : ordered_json(r.error);
  j["profile"] = r.profile.empty() ? ordered_json() : ordered_json(r.profile);
  if (r.program) {
    const ProgramSummary& p = *r.program;
    j["program"] = {{"name", p.name},
                    {"collective", p.collective},
                    {"protocol", p.protocol},
                    {"ranks", p.ranks},
                    {"channels", p.channels},
                    {"chunks_per_loop", p.chunksPerLoop},
                    {"thread_blocks", p.threadBlocks},
                    {"steps", p.steps},
                    {"call_forms", p.callForms}};
  } else {
    j["program"] = nullptr;
  }
  j["checks"] = ordered_json::array();
  for (const CheckOutcome& c : r.checks)
    j["checks"].push_back({{"check", checkName(c.check)}, {"status", checkStatusName(c.status)}, {"note", c.note}});
  j["violations"] = ordered_json::array();
  for (const Violation& v : r.violations) j["violations"].push_back(violationJson(v));
  if (r.deadlock) {
    const DeadlockSummary& d = *r.deadlock;
    j["deadlock"] = {{"slots_checked", d.slotsChecked},
                     {"minimum_slots", d.minimumSlots ? ordered_json(*d.minimumSlots) : ordered_json()},
                     {"configurations", d.configurations}};
  } else {
    j["deadlock"] = nullptr;
  }
  if (r.boxes)
    j["boxes"] = {
        {"layout", r.boxes->layout}, {"connections", r.boxes->connections}, {"across_boxes", r.boxes->acrossBoxes}};
  else
    j["boxes"] = nullptr;
  j["smt"] = r.smt ? smtJson(*r.smt) : ordered_json();
  j["selection"] = ordered_json::array();
  for (const SelectorUse& u : r.selection)
    j["selection"].push_back({{"selector", u.selector},
                              {"order", u.order},
                              {"accepts", callRangesJson(u.accepts)},
                              {"selected", callRangesJson(u.selected)}});
  j["notes"] = r.notes;
  return j;
}

}  // namespace

void writeWitness(std::ostream& out, const std::string& file, const Witness& w) {
  ordered_json j;
  j["tool"] = "ccforge verify";
  j["file"] = file;
  j["witness"] = witnessJson(w);
  out << base::jsonDocument(j);
}

void writeJson(std::ostream& out, const std::vector<FileReport>& reports, const RunInfo& run) {
  ordered_json j;
  j["tool"] = "ccforge verify";
  j["schema_version"] = 1;
  j["profile"] = run.profile;
  j["verdict"] = verdictName(combinedVerdict(reports));
  j["exit_code"] = run.exitCode;
  j["files"] = ordered_json::array();
  for (const FileReport& r : reports) j["files"].push_back(fileJson(r));
  out << base::jsonDocument(j);
}

}  // namespace ccforge::verify
