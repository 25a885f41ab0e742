#include "base/output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace ccforge::base {
namespace {

std::string reason(int error) { return std::strerror(error); }

bool isSpecialFile(const std::filesystem::path& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

// Writes all of `text` to `fd`; the errno of the failure, or 0.
int writeAll(int fd, std::string_view text) {
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return n < 0 ? errno : EIO;
    done += static_cast<size_t>(n);
  }
  return 0;
}

std::filesystem::path temporaryBeside(const std::filesystem::path& path) {
  static std::atomic<unsigned> counter{0};
  std::filesystem::path tmp = path;
  tmp += ".tmp" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
  return tmp;
}

}  // namespace

void checkOutputPath(const std::filesystem::path& path) {
  if (path.empty()) throw OutputError("empty output file name");
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw OutputError("cannot write " + path.string() + ": it is a directory");
  const std::filesystem::path dir = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
  if (!std::filesystem::is_directory(dir, ec))
    throw OutputError("cannot write " + path.string() + ": no directory " + dir.string());
  if (::access(dir.c_str(), W_OK) != 0 && !isSpecialFile(path))
    throw OutputError("cannot write " + path.string() + ": " + reason(errno));
}

void writeOutputFile(const std::filesystem::path& path, std::string_view text) {
  writeOutputFile(path, [text](const TextSink& sink) { sink(text); });
}

void writeOutputFile(const std::filesystem::path& path, const std::function<void(const TextSink&)>& produce) {
  // Writes every piece to the open file, then closes it; the first failure is reported.
  auto writeTo = [&](const std::filesystem::path& target, int flags) {
    const int fd = ::open(target.c_str(), flags, 0666);
    if (fd < 0) throw OutputError("cannot write " + path.string() + ": " + reason(errno));
    int error = 0;
    try {
      produce([&](std::string_view piece) {
        if (error == 0) error = writeAll(fd, piece);
      });
    } catch (...) {
      ::close(fd);
      throw;
    }
    if (::close(fd) != 0 && error == 0) error = errno;
    if (error != 0) throw OutputError("cannot write " + path.string() + ": " + reason(error));
  };
  if (isSpecialFile(path)) {  // /dev/stdout, /dev/full, a FIFO: in place
    writeTo(path, O_WRONLY | O_CLOEXEC);
    return;
  }
  replaceOutputFile(path,
                    [&](const std::filesystem::path& tmp) { writeTo(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC); });
}

void replaceOutputFile(const std::filesystem::path& path,
                       const std::function<void(const std::filesystem::path&)>& produce) {
  checkOutputPath(path);
  const std::filesystem::path tmp = temporaryBeside(path);
  try {
    produce(tmp);
  } catch (...) {
    std::error_code ignored;
    std::filesystem::remove(tmp, ignored);
    throw;
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int error = errno;
    std::error_code ignored;
    std::filesystem::remove(tmp, ignored);
    throw OutputError("cannot write " + path.string() + ": " + reason(error));
  }
}

}  // namespace ccforge::base
