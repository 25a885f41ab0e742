// `ccforge run FILE.xml...`: verifies MSCCL-IR programs at load (refusing what `ccforge verify`
// rejects, driver/run_verification.hpp), executes them on random data with the runtime (CPU or
// CUDA), checks every output element against the collective's definition and reports time, algbw
// and busbw (nccl-tests conventions). Exit codes as `verify`: 0 correct, 10 wrong result /
// deadlock / rejected program, 5 inconclusive (time limit, no GPU), 1 usage, 2 unreadable input,
// 6 internal error. docs/runtime.md describes it.
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "base/byte_size.hpp"
#include "cli/commands.hpp"
#include "cli/usage_error.hpp"
#include "cli/option_checks.hpp"
#include "cli/exit_codes.hpp"
#include "cli/verdict_exit_code.hpp"
#include "driver/perf_sweep.hpp"
#include "driver/perf_table.hpp"
#include "driver/run_verification.hpp"
#include "runtime/execution_error.hpp"
#include "runtime/fused_check.hpp"
#include "runtime/harness.hpp"
#include "runtime/host_memory.hpp"
#include "runtime/launch_plan.hpp"
#include "runtime/loader.hpp"
#include "runtime/names.hpp"
#include "ir/limits.hpp"
#include "ir/names.hpp"
#include "ir/reader.hpp"
#include "verify/report_writers.hpp"

namespace ccforge::cli {
namespace {

using namespace ccforge::runtime;

struct RunOptions {
  std::vector<std::string> files;
  std::string backend = "cpu";
  std::string mode = "ranks-on-one-gpu";
  int64_t count = 1 << 20;
  std::string dtype = "f32";
  std::string op = "sum";
  int iterations = 5;
  int warmup = 1;
  double timeoutSeconds = 30;
  std::string profile;  // empty: each file's header decides
  bool noVerify = false;
  bool inPlace = false;
  bool fallback = false;
  bool computeFirst = false;
  int32_t ranks = 0;
  int32_t root = 0;
  int workers = 0;
  uint64_t seed = 1;
  int64_t tileBytes = 0;
  int32_t slots = 0;
  std::optional<int32_t> maxTbs;
  // nccl-tests sweep (-b/-e/-f): one row per size, out-of-place and in-place, as nccl-tests prints.
  std::string minBytes, maxBytes;
  uint64_t factor = 2;
  std::string format = "text";
  bool countGiven = false;
};

std::string describeProgram(const Program& p) {
  std::string forms;
  if (p.serves(CallForm::OutOfPlace)) forms = "out-of-place";
  if (p.serves(CallForm::InPlace)) {
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

TargetOptions targetOptions(const RunOptions& o) {
  TargetOptions target;
  target.backend = o.backend == "cpu" ? BackendKind::Cpu : BackendKind::Cuda;
  target.mode = o.mode == "gpu-per-rank" ? GpuMode::GpuPerRank : GpuMode::RanksOnOneGpu;
  target.cpuWorkers = o.workers;
  target.timeout = std::chrono::milliseconds(static_cast<int64_t>(o.timeoutSeconds * 1000));
  target.tuning.tileBytes = o.tileBytes;
  target.tuning.slots = o.slots;
  if (o.computeFirst && o.backend != "cuda")
    throw UsageError("--compute-first is a mode of the CUDA backend (--backend cuda)");
  target.computeFirst = o.computeFirst;
  return target;
}

bool sweeping(const RunOptions& o) { return !o.minBytes.empty() || !o.maxBytes.empty(); }

// The nccl-tests table: for each size and call form, the program the runtime selects runs and is
// checked; a form no program serves is N/A, a size none is selected for is skipped with the reasons.
int executeSweep(const RunOptions& o, ProgramSet programs, std::unique_ptr<Target> device,
                 const std::vector<std::string>& verified, DataType dtype, ReduceOp op) {
  std::vector<uint64_t> sizes;
  try {
    sizes = driver::sweepSizes(o.minBytes, o.maxBytes, o.factor);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  const Program& first = programs.programs().front();
  const size_t elem = dataTypeSize(dtype);
  const int32_t ranks = o.ranks > 0 ? o.ranks : first.ranks();
  const int64_t m = sizeMultiplier(first.collective(), ranks);
  driver::PerfTable table;
  for (const Program& p : programs.programs()) table.preamble.push_back("program: " + describeProgram(p));
  if (o.noVerify) table.preamble.push_back("verification at load: skipped (--no-verify)");
  for (const std::string& v : verified) table.preamble.push_back("verification at load: " + v);

  auto callOf = [&](const driver::SweepCall& c) {
    CallShape call;
    call.collective = first.collective();
    call.root = o.root;
    call.ranks = ranks;
    call.dtype = dtype;
    call.op = op;
    call.form = c.form;
    call.count = c.count;
    return call;
  };
  const std::vector<driver::SweepCall> measured = driver::addSweepRows(
      table, sizes,
      {.elementBytes = elem,
       .multiplier = static_cast<uint64_t>(m),
       .type = driver::ncclTestsTypeName(dataTypeName(dtype)),
       .redop = reduces(first.collective()) ? std::string(reduceOpName(op)) : "none",  // as nccl-tests prints it
       .root = isRooted(first.collective()) ? o.root : -1},
      [&](CallForm form) {
        return std::any_of(programs.programs().begin(), programs.programs().end(),
                           [&](const Program& p) { return p.serves(form); });
      },
      [&](const driver::SweepCall& c) {
        const CallShape call = callOf(c);
        const Selection selection = programs.select(call);
        std::string why;
        for (const std::string& r : selection.reasons) why += (why.empty() ? "" : "; ") + r;
        if (!selection.program) return why.empty() ? std::string("no program is selected") : why;
        checkHostMemory(call, selection.program);
        return std::string();
      });

  Runtime runtime(std::move(programs), std::move(device));
  table.preamble.push_back("backend: " + runtime.target().describe());
  table.preamble.push_back("times: mean of " + std::to_string(o.iterations) + " iterations after " +
                           std::to_string(o.warmup) +
                           " warm-up; #wrong: output elements that differ from the reference in the checked run");
  MeasureOptions measureOptions;
  measureOptions.iterations = o.iterations;
  measureOptions.warmup = o.warmup;
  measureOptions.seed = o.seed;
  bool anyWrong = false;
  for (const driver::SweepCall& c : measured) {
    const Measurement mt = measure(runtime, callOf(c), measureOptions);
    driver::PerfCell& cell = driver::cellOf(table, c);
    cell.timeUs = mt.secondsPerIteration * 1e6;
    cell.algbwGBps = mt.algorithmBandwidth;
    cell.busbwGBps = mt.busBandwidth;
    cell.wrong = mt.check.mismatches;
    if (mt.result.program) cell.program = mt.result.program->source();
    anyWrong = anyWrong || !mt.check.passed();
  }
  const std::string out = o.format == "json"  ? driver::perfTableJson(table)
                          : o.format == "csv" ? driver::perfTableCsv(table)
                                              : driver::perfTableText(table);
  std::cout << out << std::flush;
  if (measured.empty()) {
    std::cerr << "ccforge run: no size of the sweep can be served (see the skipped rows)\n";
    return kExitUsage;
  }
  return anyWrong ? kExitViolation : kExitVerified;
}

// A fused program (docs/fused.md) runs with operands this command makes (small integers) and is
// checked against a plain reference of its operator and collective; its shape fixes the call.
int runFused(const RunOptions& o, const ProgramSet& programs, const std::vector<std::string>& verified) {
  if (programs.programs().size() != 1) throw UsageError("a fused program runs alone: give one file");
  const Program& p = programs.programs().front();
  std::unique_ptr<Target> device = makeTarget(targetOptions(o));
  std::cout << "programs:\n  " << describeProgram(p) << "\n";
  if (o.noVerify) std::cout << "verification at load: skipped (--no-verify)\n";
  for (const std::string& v : verified) std::cout << "verification at load: " << v << "\n";
  std::cout << "backend: " << device->describe() << "\n" << std::flush;
  FusedRunResult r;
  try {
    r = runFusedChecked(*device, p, o.seed, o.iterations);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  std::cout << "call: " << describeCall(r.call) << ", operands: small integers (seed " << o.seed << ")\n";
  if (r.passed())
    std::cout << "check: passed: every output element equals the plain reference bit for bit\n";
  else
    std::cout << "check: FAILED: " << r.wrongElements << " wrong elements; first: " << r.firstWrong << "\n";
  if (o.iterations > 0) {
    char line[120];
    std::snprintf(line, sizeof line, "time: %.2f us per call (%d iterations)\n", r.secondsPerIteration * 1e6,
                  o.iterations);
    std::cout << line;
  }
  return r.passed() ? kExitVerified : kExitViolation;
}

int execute(const RunOptions& o) {
  const std::optional<DataType> dtype = parseDataType(o.dtype);
  if (!dtype) throw UsageError("unsupported --dtype '" + o.dtype + "' (supported: " + dataTypeList() + ")");
  const std::optional<ReduceOp> op = parseReduceOp(o.op);
  if (!op) throw UsageError("unsupported --op '" + o.op + "' (supported: " + reduceOpList() + ")");
  if (o.count < 0) throw UsageError("--count must not be negative");
  if (o.iterations < 0 || o.warmup < 0) throw UsageError("--iters and --warmup must not be negative");
  if (!(o.timeoutSeconds > 0)) throw UsageError("--timeout must be positive");

  driver::RunVerificationOptions verification;
  if (!o.profile.empty()) verification.profile = profileByName(o.profile);
  if (o.slots > 0) verification.slots = o.slots;
  verification.maxCoResidentThreadBlocks = o.maxTbs;
  verification.root = o.root;
  std::vector<ir::ReadResult> reads;
  std::vector<std::string> verified;
  std::vector<verify::FileReport> refused;
  for (const std::string& file : o.files) {
    reads.push_back(ir::readAlgorithmFile(file));
    if (o.noVerify) continue;
    driver::RunVerification v = driver::verifyForRun(reads.back(), file, verification);
    if (v.decision == driver::LoadDecision::Refuse)
      refused.push_back(std::move(v.report));
    else
      verified.push_back(verificationLine(file, v, verification.profile.has_value()));
  }
  if (!refused.empty()) {
    const int code = exitCodeOf(verify::combinedVerdict(refused));
    for (const verify::FileReport& r : refused)
      std::cerr << "ccforge run: " << r.file
                << ": verification at load failed: ccforge verify rejects it (--no-verify runs it anyway)\n";
    verify::writeText(std::cerr, refused, verify::RunInfo{verify::commonProfile(refused), code});
    return code;
  }
  ProgramSet programs;
  for (size_t i = 0; i < reads.size(); ++i)
    programs.add(loadProgram(std::move(reads[i].algorithm), o.files[i], LoadOptions{}));
  const Program& first = programs.programs().front();
  for (const Program& p : programs.programs())
    if (p.collective() != first.collective())
      throw UsageError("the programs are for different collectives (" + first.source() + ": " +
                       std::string(collectiveTypeName(first.collective())) + ", " + p.source() + ": " +
                       std::string(collectiveTypeName(p.collective())) + ")");

  if (first.algorithm().fused) return runFused(o, programs, verified);
  if (sweeping(o)) {
    if (o.fallback) throw UsageError("--fallback is for single calls, not -b/-e/-f sweeps");
    if (o.inPlace) throw UsageError("a -b/-e/-f sweep runs both call forms; --in-place is for single calls");
    if (o.countGiven) throw UsageError("give either --count or -b/-e/-f, not both");
    if (o.iterations < 1) throw UsageError("a -b/-e/-f sweep needs --iters of at least 1");
    if (isRooted(first.collective()) && (o.root < 0 || o.root >= (o.ranks > 0 ? o.ranks : first.ranks())))
      throw UsageError("--root " + std::to_string(o.root) + " is not a rank");
    return executeSweep(o, std::move(programs), makeTarget(targetOptions(o)), verified, *dtype, *op);
  }
  if (o.format != "text") throw UsageError("--format json|csv is for -b/-e/-f sweeps");

  CallShape call;
  call.collective = first.collective();
  call.root = o.root;
  call.ranks = o.ranks > 0 ? o.ranks : first.ranks();
  call.count = o.count;
  call.dtype = *dtype;
  call.op = *op;
  call.form = o.inPlace || !first.serves(CallForm::OutOfPlace) ? CallForm::InPlace : CallForm::OutOfPlace;
  if (isRooted(call.collective) && (call.root < 0 || call.root >= call.ranks))
    throw UsageError("--root " + std::to_string(call.root) + " is not a rank (0.." + std::to_string(call.ranks - 1) +
                     ")");
  checkHostMemory(call, nullptr);  // the buffers first: an absurd count is refused before selection
  const Selection selection = programs.select(call);
  checkHostMemory(call, selection.program);
  if (!selection.program && !o.fallback)
    throw UsageError("no program can serve this call (" + describeCall(call) + "):\n" + selection.summary() +
                     "\npass --fallback to run the fallback path instead");

  std::unique_ptr<Target> device = makeTarget(targetOptions(o));  // fails early when CUDA is unusable here
  std::cout << "programs:\n";
  for (const Program& p : programs.programs()) std::cout << "  " << describeProgram(p) << "\n";
  if (o.noVerify) std::cout << "verification at load: skipped (--no-verify)\n";
  for (const std::string& v : verified) std::cout << "verification at load: " << v << "\n";
  std::cout << "call: " << describeCall(call) << " ("
            << base::approximateByteSize(static_cast<double>(totalBytes(call))) << ")\n";

  Runtime runtime(std::move(programs), std::move(device));
  std::cout << "backend: " << runtime.target().describe() << "\n" << std::flush;
  MeasureOptions measureOptions;
  measureOptions.iterations = o.iterations;
  measureOptions.warmup = o.warmup;
  measureOptions.seed = o.seed;
  const Measurement m = measure(runtime, call, measureOptions);

  if (m.result.path == Path::Interpreter) {
    std::cout << "path: interpreter, " << m.result.program->source();
    if (const Executor* e = runtime.lastExecutor()) {
      const Tiling& t = e->plan().tiling;
      std::cout << " (chunk " << t.chunkElems << " elements, " << t.tiles << " tile iteration"
                << (t.tiles == 1 ? "" : "s") << ", maxAllowedCount " << t.maxAllowedCount << ")";
    }
    std::cout << "\n";
  } else {
    std::cout << "path: " << pathName(m.result.path) << ", because no program serves the call:\n"
              << m.result.why << "\n";
  }
  std::cout << "check: " << m.check.describe() << "\n";
  if (o.iterations > 0) {
    char line[200];
    std::snprintf(line, sizeof line,
                  "time: %.2f us per call (%d iterations after %d warm-up)  algbw %.3f GB/s  busbw %.3f GB/s\n",
                  m.secondsPerIteration * 1e6, o.iterations, o.warmup, m.algorithmBandwidth, m.busBandwidth);
    std::cout << line;
  }
  return m.check.passed() ? kExitVerified : kExitViolation;
}

int runCommand(const RunOptions& o) {
  try {
    return execute(o);
  } catch (const UsageError& e) {
    std::cerr << "ccforge run: " << e.what() << "\n";
    return kExitUsage;
  } catch (const ProgramRejected& e) {
    std::cerr << e.diagnostic() << "\n";
    return e.unsupported() ? kExitUsage : kExitViolation;
  } catch (const InputError& e) {
    std::cerr << e.diagnostic() << "\n";
    return kExitMalformedInput;
  } catch (const ExecutionFailed& e) {
    std::cout << "result: " << e.what() << "\n";
    return e.kind() == ExecutionFailed::Kind::Deadlock ? kExitViolation : kExitInconclusive;
  } catch (const CudaUnavailable& e) {
    std::cerr << "ccforge run: cannot use --backend cuda: " << e.what() << "\n";
    return kExitInconclusive;
  } catch (const std::invalid_argument& e) {
    std::cerr << "ccforge run: " << e.what() << "\n";
    return kExitUsage;
  }
}

}  // namespace

void registerRunCommand(CLI::App& app, CommandContext& context) {
  auto options = std::make_shared<RunOptions>();
  CLI::App* run =
      app.add_subcommand("run", "Run MSCCL-IR programs on random data and check the result against the collective");
  run->add_option("files", options->files,
                  "MSCCL-IR files (.xml, .xml.gz); several form a program set selected by size")
      ->required();
  run->add_option("--backend", options->backend, "cpu or cuda")
      ->check(CLI::IsMember({"cpu", "cuda"}))
      ->capture_default_str();
  run->add_option("--mode", options->mode, "CUDA mode: ranks-on-one-gpu or gpu-per-rank")
      ->check(CLI::IsMember({"ranks-on-one-gpu", "gpu-per-rank"}))
      ->capture_default_str();
  run->add_option("--count", options->count,
                  "elements per rank (NCCL's count: per-rank share for allgather/reducescatter/alltoall)")
      ->capture_default_str()
      ->each([options](const std::string&) { options->countGiven = true; });
  run->add_option("-b,--minbytes", options->minBytes,
                  "nccl-tests sweep: smallest size (8, 1K, 128M, 1G); prints the nccl-tests table");
  run->add_option("-e,--maxbytes", options->maxBytes, "nccl-tests sweep: largest size (default: -b)");
  run->add_option("-f,--stepfactor", options->factor, "nccl-tests sweep: factor between sizes")->capture_default_str();
  run->add_option("--format", options->format, "sweep output: text (nccl-tests' table), json or csv")
      ->check(CLI::IsMember({"text", "json", "csv"}))
      ->capture_default_str();
  run->add_option("--dtype", options->dtype, "f32, f16, bf16, f64, i32, i64 or u8")->capture_default_str();
  run->add_option("--op", options->op, "sum, prod, min, max or avg (avg always takes the fallback)")
      ->capture_default_str();
  run->add_option("--iters", options->iterations, "timed iterations after the checked run")->capture_default_str();
  run->add_option("--warmup", options->warmup, "untimed iterations before the timed ones")->capture_default_str();
  run->add_option("--timeout", options->timeoutSeconds,
                  "watchdog limit in seconds (a launch on the CPU, a wait on the GPU)")
      ->check(finiteRange(0.001, 1e6))
      ->capture_default_str();
  run->add_option(
         "--profile", options->profile,
         "runtime whose limits the verification at load applies (default: the one each file's header is written for)")
      ->check(CLI::IsMember({"msccl-executor", "msccl-legacy", "ccforge-fused"}));
  run->add_flag("--no-verify", options->noVerify,
                "run files that ccforge verify rejects (skips the verification at load)");
  run->add_flag("--in-place", options->inPlace, "in-place call (default: out-of-place when the program serves it)");
  run->add_flag("--fallback", options->fallback,
                "when no program serves the call, run the fallback path instead of failing");
  run->add_flag("--compute-first", options->computeFirst,
                "CUDA, fused programs: the thread blocks that only compute as a launch of their own, then the others "
                "(the bulk-synchronous baseline as compute kernel, then collective; docs/fused.md)");
  run->add_option("--ranks", options->ranks, "ranks of the call (default: the program's ngpus)")
      ->check(CLI::Range(0, limits::kMaxProgramRanks));
  run->add_option("--root", options->root, "root of broadcast, reduce, gather, scatter")->capture_default_str();
  run->add_option("--workers", options->workers, "CPU worker threads (default: one per hardware thread, at most 8)");
  run->add_option("--seed", options->seed, "random input seed")->capture_default_str();
  run->add_option("--tile-bytes", options->tileBytes, "tile size override (default: the protocol's; a multiple of 16)")
      ->transform(byteSize())
      ->check(CLI::Range(int64_t{16}, int64_t{1} << 30));
  run->add_option("--slots", options->slots,
                  "transfers in flight per connection (default: Simple 2, LL/LL128 8), as verify --slots")
      ->check(CLI::Range(1, 1024));
  run->add_option("--max-tbs", options->maxTbs,
                  "thread blocks per rank that can be resident at once, as verify --max-tbs")
      ->check(CLI::Range(1, 1 << 20));
  run->callback([options, &context] { context.exitCode = runCommand(*options); });
}

}  // namespace ccforge::cli
