#include "base/load_file.hpp"

#include <zlib.h>

#include <cerrno>
#include <cstring>
#include <system_error>

#include "base/byte_size.hpp"
#include "base/input_error.hpp"

namespace ccforge::base {
InputStream::InputStream(const std::filesystem::path& path, uint64_t maxBytes)
    : name_(path.string()), maxBytes_(maxBytes) {
  std::error_code ec;
  auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status)) throw InputError(name_, {}, "no such file");
  if (std::filesystem::is_directory(status)) throw InputError(name_, {}, "is a directory, expected a file");
  if (!std::filesystem::is_regular_file(status)) throw InputError(name_, {}, "not a regular file");
  // gzread passes plain files through unchanged, so one code path serves both.
  file_ = gzopen(name_.c_str(), "rb");
  if (!file_) throw InputError(name_, {}, std::string("cannot open: ") + std::strerror(errno));
  gzbuffer(file_, 1 << 17);
}

InputStream::~InputStream() {
  if (file_) gzclose(file_);
}

size_t InputStream::read(char* buffer, size_t size) {
  int got = gzread(file_, buffer, static_cast<unsigned>(std::min<size_t>(size, 1u << 30)));
  int code = Z_OK;
  const char* message = gzerror(file_, &code);
  if (got < 0 || (code != Z_OK && code != Z_BUF_ERROR))
    throw InputError(name_, {},
                     code == Z_ERRNO ? std::string("cannot read: ") + std::strerror(errno)
                                     : std::string("corrupt gzip stream: ") + message);
  if (code == Z_BUF_ERROR) throw InputError(name_, {}, "truncated gzip stream");
  total_ += static_cast<uint64_t>(got);
  if (total_ > maxBytes_)
    throw InputError(name_, {},
                     "larger than " + base::byteSizeName(maxBytes_) +
                         " once inflated (gzip bomb or wrong file?); raise --max-input-size to allow it");
  return static_cast<size_t>(got);
}

std::string loadFile(const std::filesystem::path& path, uint64_t maxBytes) {
  InputStream in(path, maxBytes);
  std::string content;
  constexpr size_t kBlock = 1 << 20;
  for (;;) {
    size_t old = content.size();
    content.resize(old + kBlock);
    size_t got = in.read(content.data() + old, kBlock);
    content.resize(old + got);
    if (got == 0) return content;
  }
}

}  // namespace ccforge::base
