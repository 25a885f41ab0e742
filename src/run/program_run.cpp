#include "run/program_run.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "base/byte_size.hpp"
#include "driver/perf_sweep.hpp"
#include "driver/perf_table.hpp"
#include "ir/names.hpp"
#include "runtime/fused_check.hpp"
#include "runtime/host_memory.hpp"
#include "runtime/loader.hpp"
#include "runtime/names.hpp"

namespace ccforge::run {
namespace {

using namespace ccforge::runtime;

std::string describeProgram(const ExecutableProgram& p) {
  std::string forms;
  if (p.serves(semantics::CallForm::OutOfPlace)) forms = "out-of-place";
  if (p.serves(semantics::CallForm::InPlace)) {
    if (!forms.empty()) forms += ", ";
    forms += "in-place";
  }
  return p.source() + " (" + std::string(collectiveTypeName(p.collective())) + ", " + std::to_string(p.ranks()) +
         " ranks, " + std::string(ir::protocolName(p.protocol())) + ", nchunksperloop " +
         std::to_string(p.chunksPerLoop()) + ", " + forms + ")";
}

// One line for the log: the verdict, the profile and how it was chosen, and every check's status.
std::string verificationLine(const std::string& file, const driver::RunVerification& v, bool profileGiven) {
  std::string line = file + ": " + std::string(verify::verdictName(v.report.verdict)) + " (" + v.report.profile +
                     (profileGiven ? " profile" : " profile, from the header") + "): ";
  for (size_t i = 0; i < v.report.checks.size(); ++i) {
    const verify::CheckOutcome& c = v.report.checks[i];
    if (i > 0) line += ", ";
    line += std::string(verify::checkName(c.check)) + " " + std::string(verify::checkStatusName(c.status));
    if (c.status != verify::CheckStatus::Passed && !c.note.empty()) line += " (" + c.note + ")";
  }
  if (v.decision == driver::LoadDecision::RunUnproven)
    line += "; it runs anyway, and every output element is checked against the reference";
  return line;
}

// The lines every log begins with: the verification at load of each file.
std::vector<std::string> verificationPreamble(const ProgramRunRequest& r, const std::vector<std::string>& verified) {
  std::vector<std::string> lines;
  if (!r.verifyAtLoad) lines.push_back("verification at load: skipped (--no-verify)");
  for (const std::string& v : verified) lines.push_back("verification at load: " + v);
  return lines;
}

void requireRoot(semantics::CollectiveType collective, int32_t root, int32_t ranks) {
  if (isRooted(collective) && (root < 0 || root >= ranks))
    throw std::invalid_argument("--root " + std::to_string(root) + " is not a rank (0.." + std::to_string(ranks - 1) +
                                ")");
}

// The nccl-tests table: for each size and call form, the program the runtime selects runs and is
// checked; a form no program serves is N/A, a size none is selected for is skipped with the reasons.
ProgramRunOutcome runSweep(const ProgramRunRequest& r, ProgramSet programs, const std::vector<std::string>& verified,
                           std::ostream& out) {
  std::unique_ptr<runtime::Target> device = makeTarget(r.target);  // fails early when CUDA is unusable here
  const std::vector<uint64_t> sizes = driver::sweepSizes(r.minBytes, r.maxBytes, r.factor);
  const ExecutableProgram& first = programs.programs().front();
  const int32_t ranks = r.ranks > 0 ? r.ranks : first.ranks();
  const int64_t m = sizeMultiplier(first.collective(), ranks);
  driver::PerfTable table;
  for (const ExecutableProgram& p : programs.programs()) table.preamble.push_back("program: " + describeProgram(p));
  for (const std::string& line : verificationPreamble(r, verified)) table.preamble.push_back(line);

  auto callOf = [&](const driver::SweepCall& c) {
    CallShape call;
    call.collective = first.collective();
    call.root = r.root;
    call.ranks = ranks;
    call.dtype = r.dtype;
    call.op = r.op;
    call.form = c.form;
    call.count = c.count;
    return call;
  };
  const std::vector<driver::SweepCall> measured = driver::addSweepRows(
      table, sizes,
      {.elementBytes = dataTypeSize(r.dtype),
       .multiplier = static_cast<uint64_t>(m),
       .type = driver::ncclTestsTypeName(dataTypeName(r.dtype)),
       .redop = reduces(first.collective()) ? std::string(reduceOpName(r.op)) : "none",  // as nccl-tests prints it
       .root = isRooted(first.collective()) ? r.root : -1},
      [&](semantics::CallForm form) {
        return std::any_of(programs.programs().begin(), programs.programs().end(),
                           [&](const ExecutableProgram& p) { return p.serves(form); });
      },
      [&](const driver::SweepCall& c) {
        const CallShape call = callOf(c);
        const Selection selection = programs.select(call);
        std::string why;
        for (const std::string& reason : selection.reasons) why += (why.empty() ? "" : "; ") + reason;
        if (!selection.program) return why.empty() ? std::string("no program is selected") : why;
        checkHostMemory(call, selection.program);
        return std::string();
      });

  Runtime runtime(std::move(programs), std::move(device));
  table.preamble.push_back("backend: " + runtime.target().describe());
  table.preamble.push_back("times: mean of " + std::to_string(r.measure.iterations) + " iterations after " +
                           std::to_string(r.measure.warmup) +
                           " warm-up; #wrong: output elements that differ from the reference in the checked run");
  bool anyWrong = false;
  for (const driver::SweepCall& c : measured) {
    const Measurement mt = measure(runtime, callOf(c), r.measure);
    driver::PerfCell& cell = driver::cellOf(table, c);
    cell.timeUs = mt.secondsPerIteration * 1e6;
    cell.algbwGBps = mt.algorithmBandwidth;
    cell.busbwGBps = mt.busBandwidth;
    cell.wrong = mt.check.mismatches;
    if (mt.result.program) cell.program = mt.result.program->source();
    anyWrong = anyWrong || !mt.check.passed();
  }
  out << (r.format == TableFormat::Json  ? driver::perfTableJson(table)
          : r.format == TableFormat::Csv ? driver::perfTableCsv(table)
                                         : driver::perfTableText(table))
      << std::flush;
  if (measured.empty()) return ProgramRunOutcome::NothingServed;
  return anyWrong ? ProgramRunOutcome::Wrong : ProgramRunOutcome::Correct;
}

// A fused program (docs/fused.md) runs with operands made here (small integers) and is checked
// against a plain reference of its operator and collective; its shape fixes the call.
ProgramRunOutcome runFused(const ProgramRunRequest& r, const ProgramSet& programs,
                           const std::vector<std::string>& verified, std::ostream& out) {
  if (programs.programs().size() != 1) throw std::invalid_argument("a fused program runs alone: give one file");
  const ExecutableProgram& p = programs.programs().front();
  std::unique_ptr<runtime::Target> device = makeTarget(r.target);
  out << "programs:\n  " << describeProgram(p) << "\n";
  for (const std::string& line : verificationPreamble(r, verified)) out << line << "\n";
  out << "backend: " << device->describe() << "\n" << std::flush;
  const FusedRunResult result = runFusedChecked(*device, p, r.measure.seed, r.measure.iterations);
  out << "call: " << describeCall(result.call) << ", operands: small integers (seed " << r.measure.seed << ")\n";
  if (result.passed())
    out << "check: passed: every output element equals the plain reference bit for bit\n";
  else
    out << "check: FAILED: " << result.wrongElements << " wrong elements; first: " << result.firstWrong << "\n";
  if (r.measure.iterations > 0) {
    char line[120];
    std::snprintf(line, sizeof line, "time: %.2f us per call (%d iterations)\n", result.secondsPerIteration * 1e6,
                  r.measure.iterations);
    out << line;
  }
  return result.passed() ? ProgramRunOutcome::Correct : ProgramRunOutcome::Wrong;
}

ProgramRunOutcome runCall(const ProgramRunRequest& r, ProgramSet programs, const std::vector<std::string>& verified,
                          std::ostream& out) {
  const ExecutableProgram& first = programs.programs().front();
  CallShape call;
  call.collective = first.collective();
  call.root = r.root;
  call.ranks = r.ranks > 0 ? r.ranks : first.ranks();
  call.count = r.count;
  call.dtype = r.dtype;
  call.op = r.op;
  call.form = r.inPlace || !first.serves(semantics::CallForm::OutOfPlace) ? semantics::CallForm::InPlace
                                                                          : semantics::CallForm::OutOfPlace;
  requireRoot(call.collective, call.root, call.ranks);
  checkHostMemory(call, nullptr);  // the buffers first: an absurd count is refused before selection
  const Selection selection = programs.select(call);
  checkHostMemory(call, selection.program);
  if (!selection.program && !r.fallback)
    throw std::invalid_argument("no program can serve this call (" + describeCall(call) + "):\n" + selection.summary() +
                                "\npass --fallback to run the fallback path instead");

  std::unique_ptr<runtime::Target> device = makeTarget(r.target);  // fails early when CUDA is unusable here
  out << "programs:\n";
  for (const ExecutableProgram& p : programs.programs()) out << "  " << describeProgram(p) << "\n";
  for (const std::string& line : verificationPreamble(r, verified)) out << line << "\n";
  out << "call: " << describeCall(call) << " (" << base::approximateByteSize(static_cast<double>(totalBytes(call)))
      << ")\n";

  Runtime runtime(std::move(programs), std::move(device));
  out << "backend: " << runtime.target().describe() << "\n" << std::flush;
  const Measurement m = measure(runtime, call, r.measure);

  if (m.result.path == Path::Interpreter) {
    out << "path: interpreter, " << m.result.program->source();
    if (const Executor* e = runtime.lastExecutor()) {
      const Tiling& t = e->plan().tiling;
      out << " (chunk " << t.chunkElems << " elements, " << t.tiles << " tile iteration" << (t.tiles == 1 ? "" : "s")
          << ", maxAllowedCount " << t.maxAllowedCount << ")";
    }
    out << "\n";
  } else {
    out << "path: " << pathName(m.result.path) << ", because no program serves the call:\n" << m.result.why << "\n";
  }
  out << "check: " << m.check.describe() << "\n";
  if (r.measure.iterations > 0) {
    char line[200];
    std::snprintf(line, sizeof line,
                  "time: %.2f us per call (%d iterations after %d warm-up)  algbw %.3f GB/s  busbw %.3f GB/s\n",
                  m.secondsPerIteration * 1e6, r.measure.iterations, r.measure.warmup, m.algorithmBandwidth,
                  m.busBandwidth);
    out << line;
  }
  return m.check.passed() ? ProgramRunOutcome::Correct : ProgramRunOutcome::Wrong;
}

}  // namespace

bool isSweep(const ProgramRunRequest& request) { return !request.minBytes.empty() || !request.maxBytes.empty(); }

ProgramRunResult runPrograms(const ProgramRunRequest& r, std::ostream& out) {
  std::vector<ir::ReadResult> reads;
  std::vector<std::string> verified;
  ProgramRunResult result;
  for (const std::string& file : r.files) {
    reads.push_back(ir::readAlgorithmFile(file));
    if (!r.verifyAtLoad) continue;
    driver::RunVerification v = driver::verifyForRun(reads.back(), file, r.verification);
    if (v.decision == driver::LoadDecision::Refuse)
      result.refused.push_back(std::move(v.report));
    else
      verified.push_back(verificationLine(file, v, r.verification.profile.has_value()));
  }
  if (!result.refused.empty()) {
    result.outcome = ProgramRunOutcome::Refused;
    return result;
  }
  ProgramSet programs;
  for (size_t i = 0; i < reads.size(); ++i)
    programs.add(loadExecutable(std::move(reads[i].algorithm), r.files[i], LoadOptions{}));
  const ExecutableProgram& first = programs.programs().front();
  for (const ExecutableProgram& p : programs.programs())
    if (p.collective() != first.collective())
      throw std::invalid_argument("the programs are for different collectives (" + first.source() + ": " +
                                  std::string(collectiveTypeName(first.collective())) + ", " + p.source() + ": " +
                                  std::string(collectiveTypeName(p.collective())) + ")");

  if (first.algorithm().fused) {
    result.outcome = runFused(r, programs, verified, out);
  } else if (isSweep(r)) {
    if (r.fallback) throw std::invalid_argument("--fallback is for single calls, not -b/-e/-f sweeps");
    if (r.inPlace) throw std::invalid_argument("a -b/-e/-f sweep runs both call forms; --in-place is for single calls");
    if (r.countGiven) throw std::invalid_argument("give either --count or -b/-e/-f, not both");
    if (r.measure.iterations < 1) throw std::invalid_argument("a -b/-e/-f sweep needs --iters of at least 1");
    requireRoot(first.collective(), r.root, r.ranks > 0 ? r.ranks : first.ranks());
    result.outcome = runSweep(r, std::move(programs), verified, out);
  } else {
    if (r.format != TableFormat::Text) throw std::invalid_argument("--format json|csv is for -b/-e/-f sweeps");
    result.outcome = runCall(r, std::move(programs), verified, out);
  }
  return result;
}

}  // namespace ccforge::run
