// A directory under the system's temporary directory for one test, removed with everything in it.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace ccforge::test {

struct TempDir {
  std::filesystem::path path;
  explicit TempDir(const std::string& prefix)
      : path(std::filesystem::temp_directory_path() / ("ccforge_" + prefix + "_" + std::to_string(::getpid()))) {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);  // left over by a test that crashed
    std::filesystem::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    // A test may have taken permissions away to provoke a read error.
    for (auto it = std::filesystem::recursive_directory_iterator(path, ec);
         !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec))
      std::filesystem::permissions(it->path(), std::filesystem::perms::owner_all, std::filesystem::perm_options::add,
                                   ec);
    std::filesystem::remove_all(path, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::filesystem::path write(const std::string& name, const std::string& content) const {
    std::ofstream(path / name, std::ios::binary) << content;
    return path / name;
  }
};

}  // namespace ccforge::test
