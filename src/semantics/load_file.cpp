#include "semantics/load_file.hpp"

#include <zlib.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <system_error>

#include "semantics/input_error.hpp"

namespace ccforge {
namespace {

std::string humanBytes(uint64_t bytes) {
  if (bytes % (uint64_t{1} << 30) == 0) return std::to_string(bytes >> 30) + " GiB";
  if (bytes % (uint64_t{1} << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
  return std::to_string(bytes) + " bytes";
}

struct GzCloser {
  void operator()(gzFile_s* f) const { gzclose(f); }
};

}  // namespace

std::string loadFile(const std::filesystem::path& path, uint64_t maxBytes) {
  const std::string name = path.string();
  std::error_code ec;
  auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status)) throw InputError(name, {}, "no such file");
  if (std::filesystem::is_directory(status)) throw InputError(name, {}, "is a directory, expected a file");
  if (!std::filesystem::is_regular_file(status)) throw InputError(name, {}, "not a regular file");

  // gzread passes plain files through unchanged, so one code path serves both.
  std::unique_ptr<gzFile_s, GzCloser> file(gzopen(name.c_str(), "rb"));
  if (!file) throw InputError(name, {}, std::string("cannot open: ") + std::strerror(errno));
  gzbuffer(file.get(), 1 << 17);

  std::string content;
  constexpr unsigned kBlock = 1 << 20;
  for (;;) {
    size_t old = content.size();
    if (old >= maxBytes + 1) break;
    size_t want = std::min<uint64_t>(kBlock, maxBytes + 1 - old);
    content.resize(old + want);
    int got = gzread(file.get(), content.data() + old, static_cast<unsigned>(want));
    if (got < 0) {
      int code = 0;
      const char* message = gzerror(file.get(), &code);
      throw InputError(name, {}, std::string("cannot read: ") + (code == Z_ERRNO ? std::strerror(errno) : message));
    }
    content.resize(old + static_cast<size_t>(got));
    if (got == 0) break;
  }
  if (content.size() > maxBytes)
    throw InputError(name, {}, "larger than " + humanBytes(maxBytes) +
                                   " once inflated (gzip bomb or wrong file?); raise --max-input-size to allow it");
  int code = 0;
  gzerror(file.get(), &code);
  if (code == Z_BUF_ERROR) throw InputError(name, {}, "truncated gzip stream");
  if (code != Z_OK) throw InputError(name, {}, "corrupt gzip stream");
  return content;
}

}  // namespace ccforge
