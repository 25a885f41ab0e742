#include "driver/perf_sweep.hpp"

namespace ccforge::driver {

std::vector<SweepCall> addSweepRows(PerfTable& table, const std::vector<uint64_t>& sizes, const SweepColumns& columns,
                                    const std::function<bool(semantics::CallForm)>& serves,
                                    const std::function<std::string(const SweepCall&)>& whyNot) {
  std::vector<SweepCall> measured;
  const uint64_t unit = columns.elementBytes * columns.multiplier;
  for (uint64_t bytes : sizes) {
    PerfRow row;
    row.bytes = bytes;
    row.count = static_cast<int64_t>(bytes / unit);
    row.type = columns.type;
    row.redop = columns.redop;
    row.root = columns.root;
    table.rows.push_back(row);
    for (semantics::CallForm form : {semantics::CallForm::OutOfPlace, semantics::CallForm::InPlace}) {
      const SweepCall call{table.rows.size() - 1, form, bytes, row.count};
      PerfCell& cell = cellOf(table, call);
      if (!serves(form)) {
        cell.status = PerfCell::Status::NotApplicable;
      } else if (bytes % unit != 0 || row.count == 0) {
        cell.status = PerfCell::Status::Skipped;
        cell.reason = std::to_string(bytes) + " B is not a whole number of " + std::to_string(columns.elementBytes) +
                      "-byte elements" + (columns.multiplier > 1 ? " per rank" : "");
      } else if (std::string why = whyNot(call); !why.empty()) {
        cell.status = PerfCell::Status::Skipped;
        cell.reason = std::move(why);
      } else {
        cell.status = PerfCell::Status::Measured;
        measured.push_back(call);
      }
    }
  }
  return measured;
}

PerfCell& cellOf(PerfTable& table, const SweepCall& call) {
  PerfRow& row = table.rows[call.row];
  return call.form == semantics::CallForm::InPlace ? row.inPlace : row.outOfPlace;
}

}  // namespace ccforge::driver
