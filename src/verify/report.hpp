// What `verify` found in one file: a verdict, the outcome of each check, and every violation
// with its location and evidence (the steps involved, in a replayable form).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "semantics/ir/model.hpp"

namespace ccforge::verify {

enum class Check : uint8_t { Format, Limits, Connections, Races, Postcondition, Deadlock, Selection };
std::string_view checkName(Check c);

enum class Severity : uint8_t { Error, Warning };

// One step of a program, optionally in a given tile iteration, with what it does in the finding.
struct StepRef {
  int32_t rank = -1;
  int32_t tb = -1;
  int32_t step = -1;
  int32_t tile = -1;  // -1: any / not applicable
  ir::TextLocation where;
  std::string role;
};

struct Violation {
  Check check = Check::Format;
  Severity severity = Severity::Error;
  std::string rule;  // stable identifier, e.g. "limits.channels", "race.write-read"
  std::string message;
  std::string file;  // the file the location refers to
  ir::TextLocation where;
  std::vector<StepRef> steps;  // race pair, deadlock cycle, chain that produced a wrong chunk
  std::vector<std::string> evidence;
};

enum class CheckStatus : uint8_t { Passed, Failed, Skipped, Inconclusive };
std::string_view checkStatusName(CheckStatus s);

struct CheckOutcome {
  Check check;
  CheckStatus status;
  std::string note;  // why skipped/inconclusive, or what was covered
};

enum class Verdict : uint8_t { Verified, Violation, Inconclusive, Malformed, InternalError };
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

struct FileReport {
  std::string file;
  Verdict verdict = Verdict::Verified;
  std::string error;  // Malformed / InternalError: the message, located
  std::optional<ProgramSummary> program;
  std::vector<CheckOutcome> checks;
  std::vector<Violation> violations;  // errors and warnings
  std::optional<DeadlockSummary> deadlock;
  std::vector<std::string> notes;

  size_t errorCount() const;
  size_t warningCount() const;
};

// The verdict of several files: the most severe, in the order
// InternalError > Malformed > Violation > Inconclusive > Verified.
Verdict combinedVerdict(const std::vector<FileReport>& reports);

}  // namespace ccforge::verify
