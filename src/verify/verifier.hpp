// `ccforge verify`: runs every check on MSCCL-IR programs and reports per file.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "ir/model.hpp"
#include "ir/reader.hpp"
#include "verify/options.hpp"
#include "verify/report.hpp"

namespace ccforge::verify {

// Checks an algorithm already in memory (e.g. one the compiler just produced).
FileReport verifyAlgorithm(const ir::Algorithm& algo, const std::string& source, const Options& options,
                           const std::vector<ir::RuntimeParserIssue>& parserIssues = {});

// Reads and checks one file; unreadable or malformed input becomes a Malformed report.
FileReport verifyFile(const std::filesystem::path& path, const Options& options);

// Checks files and directories. A directory is checked the way the runtimes load it: every
// regular file and symbolic link in path order, each on its own, then together for selection
// (verify/selection.hpp); an entry that is not an algorithm file is reported as stray.
// A failing file never stops the others from being checked.
std::vector<FileReport> verifyPaths(const std::vector<std::string>& paths, const Options& options);

}  // namespace ccforge::verify
