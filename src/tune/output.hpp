// What `ccforge tune -o DIR` writes (docs/tune.md, "The directory"): the algorithm files at the
// top of DIR (the executor loads DIR as it is), and under DIR/report/ (a sub-directory, which
// the runtimes skip) the report, the plots, index.json and the legacy runtime's MSCCL_CONFIG
// files with their programs (report/legacy/). Then it checks DIR as the runtime selects from it,
// and the configs as the legacy runtime selects from them.
#pragma once

#include <string>
#include <vector>

#include "tune/tuning.hpp"
#include "verify/box_layout.hpp"
#include "verify/report.hpp"

namespace ccforge::tune {

struct TuneRun {
  std::string topology;
  // The topology as given (catalog name or path) and its boxes: the directory check is
  // `ccforge verify --topology ARGUMENT DIR`, back-pressure ordering data inside a box only.
  std::string topologyArgument;
  verify::BoxLayout boxes;
  // Where the error bounds come from: "the spec's calibration on N logs" or "the uncalibrated
  // model's defaults, docs/calibrate.md".
  std::string errorSource;
  TuneOptions options;
  std::vector<CollectiveTuning> collectives;
};

struct DirectoryCheck {
  verify::Verdict verdict = verify::Verdict::Verified;  // `ccforge verify DIR`'s
  std::vector<std::string> findings;                    // its errors and warnings, one line each
  uint64_t callsChecked = 0;                            // power-of-two calls, 1 KiB..4 GiB, every selector
  std::vector<std::string> ambiguous;                   // calls that more than one file accepts
};

struct WrittenDirectory {
  std::vector<std::string> files;  // algorithm files, in path order
  std::vector<std::string> reportFiles;
  std::vector<std::string> warnings;  // a PNG not written, legacy windows left out, ...
  DirectoryCheck check;
  std::vector<std::string> legacy;           // per collective: what the legacy selector serves
  std::vector<std::string> legacyMisrouted;  // calls it gives to another file than their window's
};

// Throws std::invalid_argument when DIR holds files tune did not write (unless `replace`, which
// removes the top-level .xml files and DIR/report first) or cannot be written.
WrittenDirectory writeTuneDirectory(const TuneRun& run, const std::string& directory, bool replace);

// Checks a directory as the runtime selects from it: `verify DIR` plus, for each collective and
// rank count of the run, at most one file accepting each power-of-two call of 1 KiB..4 GiB.
DirectoryCheck checkTuneDirectory(const TuneRun& run, const std::string& directory);

// The report as Markdown: per collective a table of size, NCCL's choice, the chosen algorithm per
// call form with predicted algbw and busbw and the gain over NCCL.
std::string reportMarkdown(const TuneRun& run, const WrittenDirectory& written);

}  // namespace ccforge::tune
