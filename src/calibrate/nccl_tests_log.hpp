// nccl-tests output (all_reduce_perf, all_gather_perf, reduce_scatter_perf, alltoall_perf,
// broadcast_perf, reduce_perf) as users paste it: any nccl-tests version's columns (with or
// without `root`, `#wrong` or the older `error`), lines prefixed by MPI (`[0]`, `[1,0]<stdout>:`)
// or indented, NCCL INFO lines in between, several collectives one after another
// (docs/calibrate.md, "Logs").
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/model.hpp"
#include "semantics/collective.hpp"

namespace ccforge::calibrate {

// One call form's columns of a row; nullopt where the log prints N/A.
struct LogCell {
  std::optional<double> timeUs;
  std::optional<double> algbwGBps;
  std::optional<double> busbwGBps;
  int64_t wrong = 0;  // the #wrong (or error) column: data the test found wrong
};

struct LogRow {
  uint64_t bytes = 0;
  int64_t count = 0;
  std::string type;
  LogCell outOfPlace;
  LogCell inPlace;
  base::TextLocation where;
};

// A device of the "# Using devices" block.
struct LogDevice {
  int32_t rank = 0;
  std::string host;
  std::string model;  // as printed after the bus id, e.g. "NVIDIA H100 80GB HBM3"
  base::TextLocation where;
};

// One collective's table.
struct NcclTestsTable {
  std::string source;
  semantics::CollectiveType collective = semantics::CollectiveType::AllReduce;
  base::TextLocation where;   // the line that names the collective, or the table's header
  int32_t threads = 1;        // nccl-tests -t
  int32_t gpusPerThread = 1;  // nccl-tests -g: GPUs one thread launches on
  std::vector<LogDevice> devices;
  std::string ncclVersion;  // "" when the log does not say
  // NCCL_* variables NCCL reports as "set by environment" (NCCL_DEBUG=INFO logs).
  std::map<std::string, std::string> environment;
  std::vector<LogRow> rows;
  std::vector<std::string> notes;  // rows left out and why

  // GPUs of the run: the devices listed, else what the busbw / algbw factor implies; nullopt
  // when neither tells.
  std::optional<int32_t> ranks() const;
  // Distinct hosts of the devices (1 when the log lists none).
  int32_t hosts() const;
};

// Reads every table of a log. Throws InputError at FILE:LINE:COLUMN for a log without a
// table, a table whose collective cannot be told (`collective` fills in when given), an
// unsupported collective (sendrecv, gather, scatter, hypercube), a truncated or malformed row.
std::vector<NcclTestsTable> readNcclTestsLog(std::string_view text, const std::string& source,
                                             std::optional<semantics::CollectiveType> collective = std::nullopt);

// The collective an nccl-tests binary name stands for ("all_reduce" -> allreduce), if modelled.
std::optional<semantics::CollectiveType> collectiveOfBinary(std::string_view name);

}  // namespace ccforge::calibrate
