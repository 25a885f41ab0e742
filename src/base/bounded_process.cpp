#include "base/bounded_process.hpp"

#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <thread>

extern char** environ;

namespace ccforge::base {

ProcessOutcome runBounded(const std::vector<std::string>& argv, std::string_view text,
                          std::chrono::milliseconds limit) {
  ProcessOutcome out;
  int fds[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) {
    out.code = errno;
    return out;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDIN_FILENO);
  std::vector<std::string> args = argv;
  std::vector<char*> pointers;
  for (std::string& a : args) pointers.push_back(a.data());
  pointers.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, pointers.front(), &actions, nullptr, pointers.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  if (spawned != 0) {
    close(fds[0]);
    out.code = spawned;
    return out;
  }
  // The input goes in pieces between checks of the child and the limit, so that a program that
  // stops reading cannot hold the caller past the limit.
  int input = fds[0];
  size_t sent = 0;
  const auto deadline = std::chrono::steady_clock::now() + limit;
  int status = 0;
  for (;;) {
    if (input >= 0 && sent == text.size()) {
      close(input);
      input = -1;
    }
    if (input >= 0) {
      const ssize_t n = send(input, text.data() + sent, text.size() - sent, MSG_NOSIGNAL | MSG_DONTWAIT);
      if (n > 0) {
        sent += static_cast<size_t>(n);
      } else if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
        out.inputDelivered = false;
        close(input);
        input = -1;
      }
    }
    const pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid) break;
    const bool lost = r < 0 && errno != EINTR;
    if (lost || std::chrono::steady_clock::now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      if (input >= 0) close(input);
      out.kind = lost ? ProcessOutcome::Kind::Signalled : ProcessOutcome::Kind::TimedOut;
      out.code = SIGKILL;
      return out;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(input < 0 ? 20 : 1));
  }
  if (input >= 0) {
    out.inputDelivered = sent == text.size();
    close(input);
  }
  out.kind = WIFEXITED(status) ? ProcessOutcome::Kind::Exited : ProcessOutcome::Kind::Signalled;
  out.code = WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status);
  return out;
}

}  // namespace ccforge::base
