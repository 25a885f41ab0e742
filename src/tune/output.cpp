#include "tune/output.hpp"

#include <limits>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "base/byte_size.hpp"
#include "base/json_document.hpp"
#include "ir/names.hpp"
#include "base/output_file.hpp"
#include "ir/reader.hpp"
#include "base/svg_to_png.hpp"
#include "semantics/runtime_profile.hpp"
#include "semantics/selection.hpp"
#include "sim/simulate.hpp"
#include "synth/deploy/deployment.hpp"
#include "tune/legacy_config.hpp"
#include "tune/plot.hpp"
#include "verify/directory.hpp"
#include "verify/verifier.hpp"

namespace ccforge::tune {
namespace {

namespace fs = std::filesystem;

std::string collName(const CollectiveTuning& t) { return std::string(ir::collectiveName(irKindOf(t.collective))); }

bool isAlgorithmName(const fs::path& p) {
  const std::string n = p.filename().string();
  return n.ends_with(".xml") || n.ends_with(".xml.gz");
}

void prepare(const fs::path& dir, bool replace) {
  std::error_code ec;
  if (!fs::exists(dir, ec)) {
    fs::create_directories(dir, ec);
    if (ec) throw std::invalid_argument(fmt::format("cannot create {}: {}", dir.string(), ec.message()));
    return;
  }
  if (!fs::is_directory(dir, ec)) throw std::invalid_argument(dir.string() + " exists and is not a directory");
  std::vector<fs::path> entries;
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) entries.push_back(e.path());
  if (ec) throw std::invalid_argument(fmt::format("cannot read {}: {}", dir.string(), ec.message()));
  if (entries.empty()) return;
  if (!replace)
    throw std::invalid_argument(
        fmt::format("{} is not empty; --force replaces its .xml files and its report/ folder", dir.string()));
  for (const fs::path& p : entries) {
    if (p.filename() == "report" && fs::is_directory(p)) {
      fs::remove_all(p, ec);
    } else if (isAlgorithmName(p) &&
               (fs::is_regular_file(fs::symlink_status(p)) || fs::is_symlink(fs::symlink_status(p)))) {
      fs::remove(p, ec);
    } else {
      throw std::invalid_argument(
          fmt::format("{} holds {}, which tune did not write; the executor would load it as well (remove it first)",
                      dir.string(), p.filename().string()));
    }
    if (ec) throw std::invalid_argument(fmt::format("cannot remove {}: {}", p.string(), ec.message()));
  }
}

std::string gainText(double ncclUs, double us) { return fmt::format("{:+.1f} %", (ncclUs / us - 1) * 100); }

// How sure a window is: its smallest predicted gain (NCCL's time / the file's) and the largest
// gain its sizes needed (the margin, or the model's error bound there).
struct WindowCertainty {
  double gain = 0;
  double needed = 0;
};
WindowCertainty certaintyOf(const CollectiveTuning& t, const Window& w) {
  WindowCertainty c{std::numeric_limits<double>::infinity(), 0};
  for (size_t i = w.firstSize; i <= w.lastSize; ++i) {
    c.gain = std::min(c.gain, t.nccl[i].timeUs / *t.evaluations[w.candidate].timeUs[i]);
    c.needed = std::max(c.needed, t.requiredGain[i]);
  }
  return c;
}

nlohmann::json optionalTime(const std::optional<double>& t) { return t ? nlohmann::json(*t) : nlohmann::json(nullptr); }

}  // namespace

DirectoryCheck checkTuneDirectory(const TuneRun& run, const std::string& directory) {
  DirectoryCheck check;
  std::error_code listed;
  const std::vector<verify::DirectoryEntry> entries = verify::listAlgorithmDirectory(directory, listed);
  std::vector<verify::FileReport> reports;
  if (!entries.empty() || listed) {
    verify::Options options;
    options.profileFromHeader = true;
    options.boxes = run.boxes;
    reports = verify::verifyPaths({directory}, options);
  } else {
    // Nothing to select from: NCCL serves every call (`verify DIR` refuses an empty directory).
    check.findings.push_back("no algorithm files: NCCL serves every call; there is nothing for verify to check");
  }
  check.verdict = verify::combinedVerdict(reports);
  for (const verify::FileReport& r : reports) {
    if (!r.error.empty()) check.findings.push_back(fmt::format("{}: {}", r.file, r.error));
    for (const verify::Violation& v : r.violations)
      check.findings.push_back(fmt::format(
          "{}: {} {}: {}", r.file, v.severity == verify::Severity::Error ? "error" : "warning", v.rule, v.message));
  }
  // The headers as written, read back.
  std::vector<std::pair<std::string, ir::Algorithm>> headers;
  for (const verify::DirectoryEntry& e : entries) {
    if (e.stray) continue;
    try {
      ir::Algorithm a = ir::readAlgorithmFile(e.path).algorithm;
      a.gpus.clear();
      headers.emplace_back(fs::path(e.path).filename().string(), std::move(a));
    } catch (const std::exception&) {
      // verify reports it
    }
  }
  for (const CollectiveTuning& t : run.collectives)
    for (semantics::Selector s : semantics::executorProfile().selectors)
      for (const semantics::SelectionCall& call : consideredCalls(s, irKindOf(t.collective), t.ranks)) {
        const uint64_t bytes = callBytes(call);
        if (bytes < semantics::kCheckedMinBytes || bytes > semantics::kCheckedMaxBytes) continue;
        ++check.callsChecked;
        std::vector<std::string> takers;
        for (const auto& [name, a] : headers)
          if (accepts(s, a, call)) takers.push_back(name);
        if (takers.size() > 1)
          check.ambiguous.push_back(fmt::format("{} {} {} B ({}-byte type) under the {} selector: {}", collName(t),
                                                callFormName(call.form), bytes, call.typeSize, selectorName(s),
                                                fmt::join(takers, ", ")));
      }
  return check;
}

WrittenDirectory writeTuneDirectory(const TuneRun& run, const std::string& directory, bool replace) {
  const fs::path dir(directory);
  prepare(dir, replace);
  WrittenDirectory out;
  for (const CollectiveTuning& t : run.collectives)
    for (const Window& w : t.windows)
      out.files.push_back(synth::deploy::writeProgram(directory, w.file, windowedProgram(t, w)));
  std::sort(out.files.begin(), out.files.end());
  // A run that writes no program file leaves every call to NCCL: it says so, and why for each
  // candidate (docs/tune.md, docs/exit-codes.md: exit 0 with this warning).
  if (out.files.empty()) {
    out.warnings.push_back(
        fmt::format("no program file written to {}: NCCL serves every call; for each candidate, why:", directory));
    for (const CollectiveTuning& t : run.collectives) {
      for (size_t k = 0; k < t.set.candidates.size(); ++k)
        out.warnings.push_back(
            fmt::format("{} #{} {}: not written: {}", collName(t), k + 1, t.set.candidates[k].name, whyNoWindow(t, k)));
      if (t.set.candidates.empty())
        out.warnings.push_back(fmt::format("{}: no candidate ({} not usable)", collName(t), t.set.rejected.size()));
    }
  }

  const fs::path report = dir / "report";
  fs::create_directories(report);
  nlohmann::json index;
  index["topology"] = run.topology;
  index["arch"] = sim::archName(run.options.arch);
  index["margin"] = run.options.margin;
  index["min_bytes"] = run.options.minBytes;
  index["max_bytes"] = run.options.maxBytes;
  index["collectives"] = nlohmann::json::array();
  for (const CollectiveTuning& t : run.collectives) {
    const std::string name = collName(t);
    const std::string svg = (report / ("plot-" + name + ".svg")).string();
    base::writeOutputFile(
        svg, plotSvg(t, fmt::format("{} on {}: predicted algbw, chosen windows shaded", name, run.topology)));
    out.reportFiles.push_back(svg);
    const std::string png = (report / ("plot-" + name + ".png")).string();
    const std::string why = base::svgToPng(svg, png);
    if (why.empty())
      out.reportFiles.push_back(png);
    else
      out.warnings.push_back(fmt::format("{}: no PNG: {}", name, why));

    // The legacy runtime's config, over copies in its own spelling under report/legacy/COLL/ (which
    // the executor, reading DIR only, never sees), each verified for that runtime. One directory
    // per config: MSCCL_CONFIG names one file, and the runtime loads at most 4 algorithms.
    const LegacyConfig legacy =
        legacyConfig(t, static_cast<size_t>(semantics::legacyProfile().maxAlgorithmFiles),
                     [](const ir::Algorithm& a) -> std::string {
                       verify::Options o;
                       o.profile = semantics::legacyProfile();
                       const verify::FileReport r = verify::verifyAlgorithm(a, a.name, o);
                       if (r.verdict == verify::Verdict::Verified) return "";
                       if (!r.violations.empty())
                         return fmt::format("the legacy profile's verifier: {} [{}]", r.violations.front().message,
                                            r.violations.front().rule);
                       return fmt::format("the legacy profile's verifier: {}",
                                          r.error.empty() ? verify::verdictName(r.verdict) : r.error);
                     });
    const fs::path legacyDir = report / "legacy" / name;
    for (const LegacyLoad& l : legacy.loads)
      out.reportFiles.push_back(synth::deploy::writeProgram(legacyDir.string(), t.windows[l.window].file, l.program));
    const std::string config = (report / ("msccl-config-" + name + ".xml")).string();
    base::writeOutputFile(config, legacyConfigXml(t, legacy, legacyDir.string()));
    out.reportFiles.push_back(config);
    for (const std::string& l : legacy.left)
      out.warnings.push_back(fmt::format("{}: msccl-config-{}.xml leaves out {}", name, name, l));
    const LegacyCheck legacyCheck = checkLegacyConfig(t, legacy);
    for (const std::string& m : legacyCheck.misrouted) out.legacyMisrouted.push_back(name + " " + m);

    nlohmann::json c;
    c["collective"] = name;
    c["ranks"] = t.ranks;
    c["candidates"] = nlohmann::json::array();
    for (size_t k = 0; k < t.set.candidates.size(); ++k) {
      const Candidate& cand = t.set.candidates[k];
      c["candidates"].push_back({{"index", k + 1},
                                 {"name", cand.name},
                                 {"id", cand.id},
                                 {"origin", cand.origin},
                                 {"protocol", ir::protocolName(cand.algorithm.proto)},
                                 {"nchunksperloop", cand.algorithm.nchunksperloop},
                                 {"in_place", cand.algorithm.servesInPlace()},
                                 {"out_of_place", cand.algorithm.servesOutOfPlace()},
                                 {"simulation_error", t.evaluations[k].simulationError}});
      if (const std::string notWritten = whyNoWindow(t, k); !notWritten.empty())
        c["candidates"].back()["not_written"] = notWritten;
    }
    c["rejected"] = nlohmann::json::array();
    for (const Rejected& r : t.set.rejected) c["rejected"].push_back({{"name", r.name}, {"why", r.why}});
    c["windows"] = nlohmann::json::array();
    for (const Window& w : t.windows) {
      const WindowCertainty sure = certaintyOf(t, w);
      c["windows"].push_back({{"form", callFormName(w.form)},
                              {"candidate", w.candidate + 1},
                              {"file", w.file},
                              {"min_bytes", w.minBytes},
                              {"max_bytes", w.maxBytes},
                              {"least_gain", sure.gain},
                              {"gain_needed", sure.needed}});
    }
    c["sizes"] = nlohmann::json::array();
    for (size_t i = 0; i < t.sizes.size(); ++i) {
      nlohmann::json s{{"bytes", t.sizes[i]},
                       {"nccl",
                        {{"algorithm", t.nccl[i].algorithm},
                         {"protocol", ir::protocolName(t.nccl[i].protocol)},
                         {"time_us", t.nccl[i].timeUs}}},
                       {"gain_needed", t.requiredGain[i]}};
      s["time_us"] = nlohmann::json::array();
      for (const Evaluation& e : t.evaluations) s["time_us"].push_back(optionalTime(e.timeUs[i]));
      for (semantics::CallForm f : kForms) {
        const std::optional<size_t>& ch = t.chosen[formIndex(f)][i];
        s[f == semantics::CallForm::InPlace ? "in_place" : "out_of_place"] =
            ch ? nlohmann::json(*ch + 1) : nlohmann::json(nullptr);
      }
      c["sizes"].push_back(s);
    }
    c["notes"] = t.notes;
    c["legacy"] = {{"loads", legacy.loads.size()},
                   {"left_out", legacy.left},
                   {"calls_in_windows", legacyCheck.callsInWindows},
                   {"calls_served", legacyCheck.callsServed},
                   {"misrouted", legacyCheck.misrouted}};
    out.legacy.push_back(
        fmt::format("{}: {} of {} loads; the legacy selector gives {} of the {} power-of-two calls inside "
                    "their windows to the window's file (those it passes over go to NCCL), {} to another file",
                    name, legacy.loads.size(), legacy.loads.size() + legacy.left.size(), legacyCheck.callsServed,
                    legacyCheck.callsInWindows, legacyCheck.misrouted.size()));
    index["collectives"].push_back(c);
  }

  out.check = checkTuneDirectory(run, directory);
  index["files"] = nlohmann::json::array();
  for (const std::string& f : out.files) index["files"].push_back(fs::path(f).filename().string());
  index["check"] = {{"verify", verify::verdictName(out.check.verdict)},
                    {"findings", out.check.findings},
                    {"calls_checked", out.check.callsChecked},
                    {"ambiguous_calls", out.check.ambiguous}};
  index["warnings"] = out.warnings;
  base::writeOutputFile(report / "index.json", base::jsonDocument(index));
  out.reportFiles.push_back((report / "index.json").string());
  base::writeOutputFile(report / "report.md", reportMarkdown(run, out));
  out.reportFiles.push_back((report / "report.md").string());
  return out;
}

std::string reportMarkdown(const TuneRun& run, const WrittenDirectory& written) {
  std::string s = fmt::format("# ccforge tune: {}\n\n", run.topology);
  s += fmt::format(
      "Predicted with the simulator (arch {}) against NCCL's own choice (docs/tune.md); sizes {}..{}. A candidate "
      "must beat NCCL by {:.0f} % (algbw) and by more than the model's error at that size ({}): the *needed* gain "
      "of each size below. Sizes outside every window go to NCCL.\n\n",
      sim::archName(run.options.arch), base::byteSizeName(run.options.minBytes),
      base::byteSizeName(run.options.maxBytes), run.options.margin * 100, run.errorSource);
  s += fmt::format(
      "Directory check: `ccforge verify --topology {} DIR` {}; {} power-of-two calls of 1 KiB..4 GiB (every "
      "call form, element size and selector), {} accepted by more than one file.\n\n",
      run.topologyArgument, verify::verdictName(written.check.verdict), written.check.callsChecked,
      written.check.ambiguous.size());
  for (const std::string& f : written.check.findings) s += "- " + f + "\n";
  for (const std::string& a : written.check.ambiguous) s += "- ambiguous: " + a + "\n";
  for (const std::string& l : written.legacy) s += "- legacy MSCCL_CONFIG " + l + "\n";
  for (const std::string& m : written.legacyMisrouted) s += "- legacy misrouted: " + m + "\n";
  for (const std::string& w : written.warnings) s += "- note: " + w + "\n";
  for (const CollectiveTuning& t : run.collectives) {
    const std::string name = collName(t);
    const double factor = busBandwidthFactor(t.collective, t.ranks);
    s += fmt::format("\n## {} ({} ranks)\n\n![{}](plot-{}.svg)\n\n", name, t.ranks, name, name);
    s += "| # | candidate | origin | protocol | nchunksperloop | call forms |\n|---|---|---|---|---|---|\n";
    for (size_t k = 0; k < t.set.candidates.size(); ++k) {
      const Candidate& c = t.set.candidates[k];
      std::string forms = c.algorithm.servesInPlace() ? "in-place" : "";
      if (c.algorithm.servesOutOfPlace()) forms += forms.empty() ? "out-of-place" : ", out-of-place";
      if (!t.evaluations[k].simulationError.empty()) forms += " (simulation: " + t.evaluations[k].simulationError + ")";
      s += fmt::format("| {} | {} | {} | {} | {} | {} |\n", k + 1, c.name, c.origin,
                       ir::protocolName(c.algorithm.proto), c.algorithm.nchunksperloop, forms);
    }
    if (!t.set.rejected.empty()) {
      s += "\nNot candidates:\n";
      for (const Rejected& r : t.set.rejected) {
        std::string why = r.why.substr(0, r.why.find('\n'));
        if (why.size() > 200) why = why.substr(0, 197) + "...";
        s += fmt::format("- {}: {}\n", r.name, why);
      }
    }
    s += "\nWindows written (how sure: the least predicted gain over NCCL in the window against the most it "
         "needed there):\n\n| call form | minBytes | maxBytes | candidate | file | least gain | needed |\n"
         "|---|---|---|---|---|---|---|\n";
    for (const Window& w : t.windows) {
      const WindowCertainty sure = certaintyOf(t, w);
      s += fmt::format("| {} | {} | {} | #{} {} | {} | x{:.2f} | x{:.2f} |\n", callFormName(w.form), w.minBytes,
                       w.maxBytes, w.candidate + 1, t.set.candidates[w.candidate].name, w.file, sure.gain, sure.needed);
    }
    if (t.windows.empty()) s += "| (none: NCCL everywhere) | | | | | | |\n";
    s += "\n| size | NCCL | NCCL algbw | needed | in-place | algbw | busbw | gain | out-of-place | algbw | busbw | "
         "gain |\n"
         "|---|---|---|---|---|---|---|---|---|---|---|---|\n";
    for (size_t i = 0; i < t.sizes.size(); ++i) {
      const double ncclBw = algbwGBps(t.sizes[i], t.nccl[i].timeUs);
      s += fmt::format("| {} | {} {} | {:.2f} | x{:.2f} |", base::byteSizeName(t.sizes[i]), t.nccl[i].algorithm,
                       ir::protocolName(t.nccl[i].protocol), ncclBw, t.requiredGain[i]);
      for (semantics::CallForm f : kForms) {
        const std::optional<size_t>& ch = t.chosen[formIndex(f)][i];
        if (!ch) {
          s += fmt::format(" NCCL | {:.2f} | {:.2f} | |", ncclBw, ncclBw * factor);
          continue;
        }
        const double us = *t.evaluations[*ch].timeUs[i];
        const double bw = algbwGBps(t.sizes[i], us);
        s += fmt::format(" #{} | {:.2f} | {:.2f} | {} |", *ch + 1, bw, bw * factor, gainText(t.nccl[i].timeUs, us));
      }
      s += "\n";
    }
    for (const std::string& n : t.notes) s += "\n- " + n;
    s += "\n";
  }
  return s;
}

}  // namespace ccforge::tune
