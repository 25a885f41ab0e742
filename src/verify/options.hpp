// How `verify` checks a program.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/load_file.hpp"
#include "verify/baseline.hpp"
#include "verify/box_layout.hpp"
#include "verify/rule_overrides.hpp"
#include "semantics/collective.hpp"
#include "semantics/runtime_profile.hpp"
#include "smt/solver.hpp"

namespace ccforge::verify {

// Which engine decides the semantic checks (deadlock, races, postcondition): the simulation
// (fast, default), the SMT encodings (docs/smt.md), or both, compared (a disagreement is exit 6).
enum class Engine : uint8_t { Sim, Smt, Both };
enum class SmtSolvers : uint8_t { Z3, Cvc5, Both };  // Both: every query to both, cross-checked

struct SmtOptions {
  SmtSolvers solvers = SmtSolvers::Z3;
  uint32_t timeoutMs = 60'000;               // per query and solver (--smt-timeout)
  uint64_t rlimit = 0;                       // deterministic resource limit per query (--smt-rlimit); 0: none
  std::optional<std::string> dumpDirectory;  // --dump-smt: every query as a .smt2 file
  // When not empty, these solver backends answer instead of `solvers` (embedding, tests).
  std::vector<std::shared_ptr<const ccforge::smt::Solver>> backends;
};

struct Options {
  semantics::RuntimeProfile profile = semantics::executorProfile();
  // Check each file against the profile its header is written for (profileForHeader) instead of
  // `profile`: `verify` and `run` without --profile. A directory's selection is checked against
  // msccl-executor when any of its files has an executor header, else msccl-legacy.
  bool profileFromHeader = false;
  std::optional<int32_t> maxCoResidentThreadBlocks;  // --max-tbs; default from the profile
  std::optional<int32_t> slots;                      // --slots: transfers in flight per connection
  BoxLayout boxes;  // --gpus-per-box, --topology: where slot back-pressure may order data; default unknown
  // --collective: "NAME", "NAME:ROOT" or a path to a collective spec (JSON). Supplies the
  // postcondition of coll="custom" files, or the root of rooted collectives.
  std::optional<std::string> collective;
  // A custom collective given as data (a compiled DSL program's own, e.g. a Python script's
  // Collective subclass); takes the place of `collective`.
  std::optional<semantics::CustomCollectiveSpec> customCollective;
  uint64_t maxInputBytes = base::kDefaultMaxInputBytes;
  // Node visits the precise happens-before search may spend per file before the race check
  // gives up as inconclusive.
  uint64_t raceSearchBudget = 50'000'000;
  // Chunk cells (all ranks' buffers) the symbolic checks may allocate, and chunks the steps may
  // move; beyond it races and the postcondition are inconclusive rather than taking minutes and
  // gigabytes (about 2 us and 60 bytes per cell: a file declares its buffers in a few attributes).
  // Four times what a DSL program may hold (limits::kMaxProgramChunks).
  uint64_t maxSymbolicCells = uint64_t{16} << 20;
  // The race check keeps, per thread block, a vector clock over its rank's thread blocks: T x T
  // entries for a rank of T. Past this (T = 4096; no runtime loads more than 1024 per rank) the
  // race check is inconclusive rather than taking gigabytes.
  uint64_t maxRaceClockEntries = uint64_t{1} << 24;
  RuleOverrides ruleOverrides;               // --disable/--warn/--error and the configuration file
  std::shared_ptr<const Baseline> baseline;  // --baseline or the configuration file's
  size_t maxReportedPerRule = 20;            // further findings of one rule are counted, not listed
  Engine engine = Engine::Sim;
  SmtOptions smt;
  // Called as each file's check (and each directory's selection check) begins, with a phrase
  // such as "verifying a.xml (2 of 5)"; the CLI shows it as progress.
  std::function<void(const std::string&)> progress;
};

}  // namespace ccforge::verify
