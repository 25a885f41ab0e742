// Reading input files: gzip is inflated transparently, and the (inflated) size is capped so that
// a gzip bomb or a device file cannot exhaust memory.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

#include "base/limits.hpp"

struct gzFile_s;

namespace ccforge::base {

inline constexpr uint64_t kDefaultMaxInputBytes = limits::kDefaultMaxInputBytes;  // 1 GiB

class InputStream {
 public:
  // Throws InputError (no location) when the file is missing, not a regular file or unreadable.
  InputStream(const std::filesystem::path& path, uint64_t maxBytes = kDefaultMaxInputBytes);
  ~InputStream();
  InputStream(const InputStream&) = delete;
  InputStream& operator=(const InputStream&) = delete;

  // Reads up to `size` bytes; 0 at the end. Throws InputError on read errors, corrupt or
  // truncated gzip, and when more than maxBytes have been read.
  size_t read(char* buffer, size_t size);

 private:
  std::string name_;
  uint64_t maxBytes_;
  uint64_t total_ = 0;
  gzFile_s* file_ = nullptr;
};

std::string loadFile(const std::filesystem::path& path, uint64_t maxBytes = kDefaultMaxInputBytes);

}  // namespace ccforge::base
