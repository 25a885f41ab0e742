#include "ir/svg_to_png.hpp"

#include <fmt/format.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <thread>

namespace ccforge {

std::string svgToPng(const std::string& svgPath, const std::string& pngPath) {
  std::string outArg = pngPath, inArg = svgPath;
  std::string program = "rsvg-convert", oFlag = "-o";
  char* argv[] = {program.data(), oFlag.data(), outArg.data(), inArg.data(), nullptr};
  pid_t pid = 0;
  if (posix_spawnp(&pid, "rsvg-convert", nullptr, nullptr, argv, environ) != 0)
    return "rsvg-convert is not installed (Debian: librsvg2-bin); only the SVG is written";
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  int status = 0;
  for (;;) {
    const pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid) break;
    if (r < 0) return "waiting for rsvg-convert failed";
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      return "rsvg-convert took more than 30 s and was stopped";
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::error_code ec;
    std::filesystem::remove(pngPath, ec);
    return WIFEXITED(status) ? fmt::format("rsvg-convert failed (exit {})", WEXITSTATUS(status))
                             : std::string("rsvg-convert was killed by a signal");
  }
  return "";
}

}  // namespace ccforge
