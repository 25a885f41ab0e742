// The checks of an algorithm directory as a whole: for each selector of the profile
// (semantics/selection.hpp), which of the calls users make each file accepts and runs, and the
// findings when two files compete for a call, a file is never selected, or an entry of the
// directory is not an algorithm file at all (docs/verify.md "Directories").
#pragma once

#include <string>
#include <vector>

#include "ir/model.hpp"
#include "verify/options.hpp"
#include "verify/report.hpp"

namespace ccforge::verify {

struct LoadedAlgorithm {
  const ir::Algorithm* algorithm;  // nullptr for a file that did not read
  FileReport* report;
};

// `files` are the directory's algorithm files in path order (the executor's order).
void checkSelection(const std::vector<LoadedAlgorithm>& files, const Options& options);

// The report of a directory entry that is not an algorithm file; `why` says what it is, and
// `laterEntries` how many entries follow it in path order.
FileReport strayFileReport(const std::string& path, const std::string& why, size_t laterEntries,
                           const Options& options);

// "out-of-place 1 MiB..256 GiB with 1/2/4/8-byte types; in-place ..." (text reports, messages).
std::string describeCalls(const std::vector<CallRange>& calls);

}  // namespace ccforge::verify
