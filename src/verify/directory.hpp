// The entries of an algorithm directory as the runtimes list them: every regular file and every
// symbolic link, whatever it points to, sorted by path (the executor's order); sub-directories and
// other entries are skipped. An entry that is not an MSCCL-IR algorithm file is stray.
#pragma once

#include <optional>
#include <string>
#include <system_error>
#include <vector>

namespace ccforge::verify {

struct DirectoryEntry {
  std::string path;
  std::optional<std::string> stray;  // why it is not an algorithm file (for the finding)
};

// `ec` is set when the directory cannot be read.
std::vector<DirectoryEntry> listAlgorithmDirectory(const std::string& directory, std::error_code& ec);

}  // namespace ccforge::verify
