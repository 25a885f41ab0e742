#include "verify/report_reader.hpp"

#include <fstream>
#include <stdexcept>
#include <nlohmann/json.hpp>

#include "base/input_error.hpp"

namespace ccforge::verify {
namespace {

using nlohmann::json;

// A value that is not one the writer produces.
struct UnknownValue : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The enumerator (0..last) whose name nameOf gives.
template <typename Enum, typename NameOf>
Enum byName(const json& value, Enum last, NameOf nameOf) {
  const std::string name = value.get<std::string>();
  for (int i = 0; i <= static_cast<int>(last); ++i)
    if (nameOf(static_cast<Enum>(i)) == name) return static_cast<Enum>(i);
  throw UnknownValue("unknown value \"" + name + "\"");
}

base::TextLocation locationOf(const json& j) { return {j.at("line").get<uint32_t>(), j.at("column").get<uint32_t>()}; }

StepRef stepOf(const json& j) {
  StepRef s;
  s.rank = j.at("rank").get<int32_t>();
  s.tb = j.at("tb").get<int32_t>();
  s.step = j.at("step").get<int32_t>();
  s.tile = j.at("tile").get<int32_t>();
  s.where = locationOf(j);
  s.role = j.at("role").get<std::string>();
  return s;
}

Violation violationOf(const json& j) {
  Violation v;
  v.check = byName(j.at("check"), Check::Selection, checkName);
  const std::string severity = j.at("severity").get<std::string>();
  if (severity != "error" && severity != "warning") throw UnknownValue("unknown severity \"" + severity + "\"");
  v.severity = severity == "error" ? Severity::Error : Severity::Warning;
  v.rule = j.at("rule").get<std::string>();
  v.message = j.at("message").get<std::string>();
  v.file = j.at("file").get<std::string>();
  v.where = locationOf(j);
  for (const json& s : j.at("steps")) v.steps.push_back(stepOf(s));
  v.evidence = j.at("evidence").get<std::vector<std::string>>();
  if (const auto it = j.find("suppression"); it != j.end())
    v.suppression = Suppression{byName(it->at("kind"), SuppressionKind::External, suppressionKindName),
                                it->at("justification").get<std::string>()};
  return v;
}

FileReport fileReportOf(const json& j) {
  FileReport r;
  r.file = j.at("file").get<std::string>();
  r.verdict = byName(j.at("verdict"), Verdict::InternalError, verdictName);
  if (!j.at("error").is_null()) r.error = j.at("error").get<std::string>();
  if (!j.at("profile").is_null()) r.profile = j.at("profile").get<std::string>();
  for (const json& v : j.at("violations")) r.violations.push_back(violationOf(v));
  r.notes = j.at("notes").get<std::vector<std::string>>();
  return r;
}

ScheduleEvent eventOf(const json& j) {
  ScheduleEvent e;
  e.rank = j.at("rank").get<int32_t>();
  e.tb = j.at("tb").get<int32_t>();
  e.step = j.at("step").get<int32_t>();
  e.tile = j.at("tile").get<int32_t>();
  if (j.contains("unit")) {
    e.unit = j.at("unit").get<int32_t>();
  } else {
    e.action = j.at("action").get<std::string>();
    e.chunk = j.at("chunk").get<int32_t>();
  }
  return e;
}

Witness witnessOf(const json& j) {
  Witness w;
  w.kind = j.at("kind").get<std::string>();
  w.query = j.at("query").get<std::string>();
  if (j.contains("configuration")) {
    const json& c = j.at("configuration");
    w.tiles = c.at("tiles").get<int32_t>();
    w.maxAllowedCount = c.at("max_allowed_count").get<int32_t>();
    w.slots = c.at("slots").get<int32_t>();
  } else {
    w.callForm = j.at("call_form").get<std::string>();
    w.slots = j.at("slots").get<int32_t>();
    if (j.contains("boxes")) w.boxes = j.at("boxes").get<std::vector<int32_t>>();
  }
  for (const json& e : j.at("schedule")) w.schedule.push_back(eventOf(e));
  for (const json& s : j.at("blocked")) w.blocked.push_back(stepOf(s));
  w.outcome = j.at("outcome").get<std::vector<std::string>>();
  w.replay = j.at("replay").get<std::string>();
  return w;
}

}  // namespace

ReportFile readReportFile(const std::filesystem::path& path) {
  const std::string name = path.string();
  std::ifstream in(path);
  if (!in) throw base::InputError(name, {}, "cannot read the report");
  json document;
  try {
    document = json::parse(in);
  } catch (const json::exception& e) {
    throw base::InputError(name, {}, std::string("not a JSON report: ") + e.what());
  }
  ReportFile out;
  try {
    if (document.contains("witness")) {
      out.witness = witnessOf(document.at("witness"));
    } else {
      for (const json& f : document.at("files")) out.reports.push_back(fileReportOf(f));
    }
  } catch (const json::exception& e) {
    throw base::InputError(name, {}, std::string("neither a ccforge verify report nor an SMT witness: ") + e.what());
  } catch (const UnknownValue& e) {
    throw base::InputError(name, {}, std::string("neither a ccforge verify report nor an SMT witness: ") + e.what());
  }
  return out;
}

}  // namespace ccforge::verify
