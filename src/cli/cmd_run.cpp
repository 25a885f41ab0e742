// `ccforge run FILE.xml...`: the options of run/program_run.hpp's pipeline (verification at
// load, a run on random data checked element by element, time, algbw and busbw as nccl-tests
// reports them). Exit codes as `verify`: 0 correct, 10 wrong result /
// deadlock / rejected program, 5 inconclusive (time limit, no GPU), 1 usage, 2 unreadable input,
// 6 internal error. docs/runtime.md describes it.
#include <chrono>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "base/limits.hpp"
#include "cli/commands.hpp"
#include "cli/exit_codes.hpp"
#include "cli/option_checks.hpp"
#include "cli/usage_error.hpp"
#include "cli/verdict_exit_code.hpp"
#include "run/program_run.hpp"
#include "runtime/execution_error.hpp"
#include "runtime/names.hpp"
#include "runtime/program.hpp"
#include "runtime/target.hpp"
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

run::ProgramRunRequest requestOf(const RunOptions& o) {
  run::ProgramRunRequest r;
  const std::optional<DataType> dtype = parseDataType(o.dtype);
  if (!dtype) throw UsageError("unsupported --dtype '" + o.dtype + "' (supported: " + dataTypeList() + ")");
  const std::optional<ReduceOp> op = parseReduceOp(o.op);
  if (!op) throw UsageError("unsupported --op '" + o.op + "' (supported: " + reduceOpList() + ")");
  if (o.count < 0) throw UsageError("--count must not be negative");
  if (o.iterations < 0 || o.warmup < 0) throw UsageError("--iters and --warmup must not be negative");
  if (!(o.timeoutSeconds > 0)) throw UsageError("--timeout must be positive");
  r.files = o.files;
  r.target = targetOptions(o);
  r.verifyAtLoad = !o.noVerify;
  if (!o.profile.empty()) r.verification.profile = semantics::profileByName(o.profile);
  if (o.slots > 0) r.verification.slots = o.slots;
  r.verification.maxCoResidentThreadBlocks = o.maxTbs;
  r.verification.root = o.root;
  r.measure = MeasureOptions{.iterations = o.iterations, .warmup = o.warmup, .seed = o.seed};
  r.dtype = *dtype;
  r.op = *op;
  r.ranks = o.ranks;
  r.root = o.root;
  r.count = o.count;
  r.countGiven = o.countGiven;
  r.inPlace = o.inPlace;
  r.fallback = o.fallback;
  r.minBytes = o.minBytes;
  r.maxBytes = o.maxBytes;
  r.factor = o.factor;
  r.format = o.format == "json"  ? run::TableFormat::Json
             : o.format == "csv" ? run::TableFormat::Csv
                                 : run::TableFormat::Text;
  return r;
}

int execute(const RunOptions& o) {
  const run::ProgramRunResult result = run::runPrograms(requestOf(o), std::cout);
  switch (result.outcome) {
    case run::ProgramRunOutcome::Correct: return kExitVerified;
    case run::ProgramRunOutcome::Wrong: return kExitViolation;
    case run::ProgramRunOutcome::NothingServed:
      std::cerr << "ccforge run: no size of the sweep can be served (see the skipped rows)\n";
      return kExitUsage;
    case run::ProgramRunOutcome::Refused: break;
  }
  const int code = exitCodeOf(verify::combinedVerdict(result.refused));
  for (const verify::FileReport& r : result.refused)
    std::cerr << "ccforge run: " << r.file
              << ": verification at load failed: ccforge verify rejects it (--no-verify runs it anyway)\n";
  verify::writeText(std::cerr, result.refused, verify::RunInfo{verify::commonProfile(result.refused), code});
  return code;
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
  } catch (const base::InputError& e) {
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
      ->check(CLI::Range(0, base::limits::kMaxProgramRanks));
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
