// Reading back what `verify` writes, for tools that act on a report after the fact (`ccforge dot
// --highlight`): the findings of a `--format json` report (docs/verify-json.md) and the SMT
// witness files of `--witness-dir` (docs/smt.md, "Witnesses"). The reader sits next to the
// writers (report_json.cpp) so that the two follow one schema.
#pragma once

#include <filesystem>
#include <optional>
#include <vector>

#include "verify/report.hpp"

namespace ccforge::verify {

struct ReportFile {
  // A JSON report: per file, its `file`, `verdict`, `error`, `profile`, `violations` and `notes`
  // (checks, deadlock and SMT summaries are not read back).
  std::vector<FileReport> reports;
  std::optional<Witness> witness;  // a witness file
};

// Throws InputError (located at the file) when the file is unreadable, not JSON, or neither a
// report nor a witness.
ReportFile readReportFile(const std::filesystem::path& path);

}  // namespace ccforge::verify
