#include "viz/dot_render.hpp"

#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <thread>
#include <vector>

#include "ir/output_file.hpp"

extern char** environ;

namespace ccforge::viz {
namespace {

// Sends all of `text` to the child; false if the child stopped reading.
bool sendAll(int fd, const std::string& text) {
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = send(fd, text.data() + done, text.size() - done, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

// Waits for the child at most `limit`; kills it after that. Returns its wait status.
int waitWithLimit(pid_t pid, std::chrono::seconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  int status = 0;
  for (;;) {
    const pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid) return status;
    if (r < 0 && errno != EINTR) throw std::runtime_error(std::string("waiting for dot: ") + std::strerror(errno));
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      throw std::runtime_error("Graphviz's dot did not finish within " + std::to_string(limit.count()) +
                               " s; draw less (--rank, --chunk, --around)");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

}  // namespace

std::optional<DotFormat> formatForPath(const std::filesystem::path& path) {
  const std::string ext = path.extension().string();
  if (ext == ".dot" || ext == ".gv") return DotFormat::Dot;
  if (ext == ".svg") return DotFormat::Svg;
  if (ext == ".png") return DotFormat::Png;
  if (ext == ".pdf") return DotFormat::Pdf;
  return std::nullopt;
}

namespace {

// Runs Graphviz's dot on `dot`, writing the picture of `format` to `out`.
void render(const std::string& dot, DotFormat format, const std::filesystem::path& out, std::chrono::seconds limit) {
  int fds[2];
  if (socketpair(AF_UNIX, SOCK_STREAM, 0, fds) != 0)
    throw std::runtime_error(std::string("cannot start dot: ") + std::strerror(errno));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDIN_FILENO);
  posix_spawn_file_actions_addclose(&actions, fds[0]);
  posix_spawn_file_actions_addclose(&actions, fds[1]);
  const std::string type = format == DotFormat::Svg ? "-Tsvg" : format == DotFormat::Png ? "-Tpng" : "-Tpdf";
  const std::string outName = out.string();
  std::vector<char*> argv{const_cast<char*>("dot"), const_cast<char*>(type.c_str()), const_cast<char*>("-o"),
                          const_cast<char*>(outName.c_str()), nullptr};
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, "dot", &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  if (spawned != 0) {
    close(fds[0]);
    throw std::runtime_error("cannot run Graphviz's dot (" + std::string(std::strerror(spawned)) +
                             "); install the Debian package graphviz, or write .dot and render it elsewhere");
  }
  const bool sent = sendAll(fds[0], dot);
  close(fds[0]);
  const int status = waitWithLimit(pid, limit);
  if (!sent || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::runtime_error("Graphviz's dot could not render " + outName +
                             (WIFEXITED(status) ? " (exit " + std::to_string(WEXITSTATUS(status)) + ")" : ""));
}

}  // namespace

void writePicture(const std::string& dot, DotFormat format, const std::filesystem::path& path,
                  std::chrono::seconds limit) {
  if (format == DotFormat::Dot) {
    writeOutputFile(path, dot);
    return;
  }
  // Rendered beside the target and renamed over it: a failed or killed dot leaves no partial picture.
  replaceOutputFile(path, [&](const std::filesystem::path& temporary) { render(dot, format, temporary, limit); });
}

}  // namespace ccforge::viz
