// What `verify` found in one file: a verdict, the outcome of each check, and every violation
// with its location and evidence (the steps involved, in a replayable form).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/model.hpp"

namespace ccforge::verify {

enum class Check : uint8_t { Format, Limits, Buffers, Connections, Races, Postcondition, Deadlock, Selection };
std::string_view checkName(Check c);

enum class Severity : uint8_t { Error, Warning };

// One step of a program, optionally in a given tile iteration, with what it does in the finding.
struct StepRef {
  int32_t rank = -1;
  int32_t tb = -1;
  int32_t step = -1;
  int32_t tile = -1;  // -1: any / not applicable
  base::TextLocation where;
  std::string role;
};

// Why a finding does not count (docs/verify.md, "Rule control"): a comment in the file, or the
// baseline of findings a gate accepted. SARIF's suppression kinds.
enum class SuppressionKind : uint8_t { InSource, External };
struct Suppression {
  SuppressionKind kind = SuppressionKind::InSource;
  std::string justification;
};
std::string_view suppressionKindName(SuppressionKind k);  // "inSource", "external"

struct Violation {
  Check check = Check::Format;
  Severity severity = Severity::Error;
  std::string rule;  // stable identifier, e.g. "limits.channels", "race.write-read"
  std::string message;
  std::string file;  // the file the location refers to
  base::TextLocation where;
  std::vector<StepRef> steps;  // race pair, deadlock cycle, chain that produced a wrong chunk
  std::vector<std::string> evidence;
  std::optional<Suppression> suppression;  // set: reported, but neither an error nor a warning
};

enum class CheckStatus : uint8_t { Passed, Failed, Skipped, Inconclusive };
std::string_view checkStatusName(CheckStatus s);

struct CheckOutcome {
  Check check;
  CheckStatus status;
  std::string note;  // why skipped/inconclusive, or what was covered
};

// Accepted: no error remains, but some findings are suppressed (a comment in the file, the
// baseline): the gate passes (exit 0); the file is not verified.
enum class Verdict : uint8_t { Verified, Accepted, Violation, Inconclusive, Malformed, InternalError };
std::string_view verdictName(Verdict v);

struct ProgramSummary {
  std::string name;
  std::string collective;  // "allreduce", "broadcast(root 0)", "custom (no postcondition)"
  std::string protocol;
  int32_t ranks = 0;
  int32_t channels = 0;
  int32_t chunksPerLoop = 0;
  uint64_t threadBlocks = 0;
  uint64_t steps = 0;
  std::vector<std::string> callForms;  // "in-place", "out-of-place"
};

struct DeadlockSummary {
  int32_t slotsChecked = 0;  // transfers in flight per connection used for the verdict
  // Smallest transfers-in-flight count with which every checked configuration completes;
  // nullopt when none up to the search limit does (a dependency cycle, not a buffering problem).
  std::optional<int32_t> minimumSlots;
  std::vector<std::string> configurations;  // "tiles=1 maxAllowedCount=71", ...
};

// Where slot back-pressure may order data (docs/verify.md, "Connections across boxes").
struct BoxSummary {
  std::string layout;  // BoxLayout::describe(): "unknown", "8 GPUs per box", ...
  bool layoutKnown = false;
  int32_t connections = 0;
  int32_t acrossBoxes = 0;  // connections whose two ranks are, or may be, in different boxes
};

// One event of a counterexample schedule (docs/smt.md, "Witnesses").
struct ScheduleEvent {
  int32_t rank = 0;
  int32_t tb = 0;
  int32_t step = 0;
  int32_t tile = 0;
  int32_t unit = -1;   // deadlock witnesses: the FIFO unit of the step (0 for a step that moves no data)
  std::string action;  // data witnesses: "begin", "read", "write" or "end"
  int32_t chunk = -1;  // data witnesses: the chunk of the step (0..cnt-1) that is read or written
};

// A schedule an SMT solver found, replayable in the simulator's semantics.
struct Witness {
  std::string kind;   // "deadlock", "wrong-output" or "nondeterministic-output"
  std::string query;  // the query whose model it is
  // Deadlock witnesses: the configuration; data witnesses: slots whose back-pressure orders the
  // steps (0: unbounded FIFOs).
  int32_t tiles = 0;
  int32_t maxAllowedCount = 0;
  int32_t slots = 0;
  std::vector<int32_t> boxes;           // data witnesses: each rank's box; back-pressure orders only within one
  std::string callForm;                 // data witnesses: the call form
  std::vector<ScheduleEvent> schedule;  // in execution order
  std::vector<StepRef> blocked;         // deadlock: where every unfinished thread block waits
  std::vector<std::string> outcome;     // data: the output chunks that differ, with their values
  std::string replay;                   // what replaying the schedule showed
};

// One query of the SMT engine and every solver's answer (no timings: reports are deterministic).
struct SolverAnswer {
  std::string solver;
  std::string answer;  // "sat", "unsat", "unknown", "error"
  std::string reason;
};
struct SmtQueryRecord {
  std::string check;  // the check it decides
  std::string query;
  std::string answer;     // agreed answer, or "unknown"/"error"/"disagreement"
  std::string decidedBy;  // "solvers", or "simplification" (an assertion simplified to false: unsat)
  std::vector<SolverAnswer> solvers;
};

struct SmtSummary {
  std::string engine;                // "smt" or "both"
  std::vector<std::string> solvers;  // "z3", "cvc5"
  std::vector<SmtQueryRecord> queries;
  // Smallest deadlock-free slot count with its proof (unsat at it, sat below it), as for DeadlockSummary.
  std::optional<int32_t> minimumSlots;
  std::string minimumSlotsProof;
  int32_t maxTilesChecked = 0;  // largest tile-iteration count a deadlock query covered
  std::string parametric;       // deadlock freedom for every tile-iteration count: the argument or the counterexample
  std::vector<Witness> witnesses;
};

// Calls of one form and element size whose count is every power of two from countMin to
// countMax; bytes are the selectors' size (count * typeSize * sizeMultiplier).
struct CallRange {
  std::string callForm;  // "in-place", "out-of-place"
  int32_t typeSize = 0;
  uint64_t countMin = 0;
  uint64_t countMax = 0;
  uint64_t bytesMin = 0;
  uint64_t bytesMax = 0;
};

// What one selector does with a file of a directory, over the calls verify considers
// (docs/verify.md "Directories").
struct SelectorUse {
  std::string selector;            // "internal", "external", "legacy", "rccl"
  std::string order;               // where the selector looks at the file ("path order, 2 of 5", ...)
  std::vector<CallRange> accepts;  // calls whose tests the file passes
  // Calls the file runs: with a fixed order, those it is the first to accept; in readdir order,
  // those no other file accepts (the rest of `accepts` may go to another file).
  std::vector<CallRange> selected;
};

struct FileReport {
  std::string file;
  Verdict verdict = Verdict::Verified;
  // Malformed / InternalError: the diagnostic line (FILE:LINE:COLUMN: error: MESSAGE [RULE],
  // base/diagnostic.hpp); errorFile, errorWhere and errorMessage are its parts (errorFile is `file`
  // or a file it names, such as a collective spec).
  std::string error;
  std::string errorFile;
  base::TextLocation errorWhere;
  std::string errorMessage;
  std::string profile;  // the runtime profile it was checked against; empty when it was not read
  std::optional<ProgramSummary> program;
  std::vector<CheckOutcome> checks;
  std::vector<Violation> violations;  // errors and warnings
  std::optional<DeadlockSummary> deadlock;
  std::optional<BoxSummary> boxes;     // files whose connections were checked
  std::optional<SmtSummary> smt;       // --engine smt|both
  std::vector<SelectorUse> selection;  // files of a directory: one entry per selector of the profile
  std::vector<std::string> notes;

  size_t errorCount() const;  // neither counts suppressed findings
  size_t warningCount() const;
  size_t suppressedCount() const;
};

// Records why `r` could not be checked (its verdict, Malformed or InternalError, already set):
// `message` at `where` in `file` (the report's own file, or one it names, such as a spec).
void setError(FileReport& r, const std::string& file, base::TextLocation where, std::string message);

// The verdict of several files: the most severe, in the order
// InternalError > Malformed > Violation > Inconclusive > Verified.
Verdict combinedVerdict(const std::vector<FileReport>& reports);

// The profile the reports were checked against: its name, "mixed" when they differ (profiles
// taken from the files' headers), empty when no file was read.
std::string commonProfile(const std::vector<FileReport>& reports);

}  // namespace ccforge::verify
