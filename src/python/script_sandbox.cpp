#include "python/script_sandbox.hpp"

#include <fcntl.h>
#include <linux/landlock.h>
#include <poll.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>

#include "dsl/program_transfer.hpp"
#include "python/session.hpp"

namespace ccforge::python {
namespace {

// Landlock's interface as the kernel defines it; Debian 12's headers stop at ABI 3, so the later
// fields and bits are spelled out here (linux/landlock.h of Linux 6.12).
struct RulesetAttr {
  uint64_t handledAccessFs = 0;
  uint64_t handledAccessNet = 0;  // ABI 4
  uint64_t scoped = 0;            // ABI 6
};
constexpr uint64_t kFsWrites = LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_REMOVE_DIR |
                               LANDLOCK_ACCESS_FS_REMOVE_FILE | LANDLOCK_ACCESS_FS_MAKE_CHAR |
                               LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG |
                               LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO |
                               LANDLOCK_ACCESS_FS_MAKE_BLOCK | LANDLOCK_ACCESS_FS_MAKE_SYM;
constexpr uint64_t kFsRefer = uint64_t{1} << 13;     // ABI 2
constexpr uint64_t kFsTruncate = uint64_t{1} << 14;  // ABI 3
constexpr uint64_t kNetBindTcp = uint64_t{1} << 0, kNetConnectTcp = uint64_t{1} << 1;
constexpr uint64_t kScopeAbstractUnixSocket = uint64_t{1} << 0, kScopeSignal = uint64_t{1} << 1;

int landlockAbi() {
  const long abi = syscall(SYS_landlock_create_ruleset, nullptr, 0, LANDLOCK_CREATE_RULESET_VERSION);
  return abi < 0 ? 0 : static_cast<int>(abi);
}

void allowBeneath(int ruleset, const char* path, uint64_t access) {
  const int fd = open(path, O_PATH | O_CLOEXEC);
  if (fd < 0) return;
  landlock_path_beneath_attr rule{};
  rule.allowed_access = access;
  rule.parent_fd = fd;
  syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0);
  close(fd);
}

// Writes only beneath `writable` (and to /dev/null); no TCP; no signal or abstract socket outside.
void restrictWithLandlock(const std::string& writable) {
  const int abi = landlockAbi();
  if (abi < 1) return;
  RulesetAttr attr;
  attr.handledAccessFs = kFsWrites | (abi >= 2 ? kFsRefer : 0) | (abi >= 3 ? kFsTruncate : 0);
  if (abi >= 4) attr.handledAccessNet = kNetBindTcp | kNetConnectTcp;
  if (abi >= 6) attr.scoped = kScopeAbstractUnixSocket | kScopeSignal;
  const size_t size = abi >= 6 ? sizeof attr : abi >= 4 ? 2 * sizeof(uint64_t) : sizeof(uint64_t);
  const long ruleset = syscall(SYS_landlock_create_ruleset, &attr, size, 0);
  if (ruleset < 0) return;
  allowBeneath(static_cast<int>(ruleset), writable.c_str(), attr.handledAccessFs);
  allowBeneath(static_cast<int>(ruleset), "/dev/null", LANDLOCK_ACCESS_FS_WRITE_FILE | (abi >= 3 ? kFsTruncate : 0));
  syscall(SYS_landlock_restrict_self, ruleset, 0);
  close(static_cast<int>(ruleset));
}

// The result as bytes for the pipe: the status, the error text and the programs, each once.
std::string encodeResult(const ScriptResult& result) {
  dsl::ProgramTransfer t;
  t.status = static_cast<uint8_t>(result.status);
  t.message = result.error;
  std::map<const dsl::Program*, size_t> numbers;
  auto number = [&](const std::shared_ptr<dsl::Program>& p) {
    const auto [it, added] = numbers.try_emplace(p.get(), t.programs.size());
    if (added) t.programs.push_back(p);
    return it->second;
  };
  for (const EmittedProgram& e : result.emitted) t.marked.emplace_back(number(e.program), e.at);
  if (result.lastCreated) t.last = static_cast<int64_t>(number(result.lastCreated));
  return dsl::encodePrograms(t);
}

ScriptResult decodeResult(std::string_view bytes) {
  dsl::ProgramTransfer t = dsl::decodePrograms(bytes, [](const std::string& f) { return Session::intern(f); });
  if (t.status > static_cast<uint8_t>(ScriptStatus::ScriptFailed)) throw dsl::TransferError("no such script status");
  ScriptResult r;
  r.status = static_cast<ScriptStatus>(t.status);
  r.error = std::move(t.message);
  for (const auto& [n, at] : t.marked) r.emitted.push_back(EmittedProgram{t.programs[n], at});
  if (t.last >= 0) r.lastCreated = t.programs[static_cast<size_t>(t.last)];
  return r;
}

void setLimit(int resource, rlim_t soft, rlim_t hard) {
  const rlimit l{soft, hard};
  setrlimit(resource, &l);
}

bool writeAll(int fd, const char* data, size_t size) {
  while (size > 0) {
    const ssize_t n = write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

// The seconds past a limit before the kernel (CPU) or ccforge (wall clock) ends a script that
// caught the exception the limit raised.
constexpr uint32_t kGraceSeconds = 5;

struct Pipes {
  std::array<int, 2> result{-1, -1}, output{-1, -1}, errors{-1, -1}, status{-1, -1};
};

ScriptResult failedScript(const ScriptRequest& request, const std::string& why) {
  ScriptResult r;
  r.status = ScriptStatus::ScriptFailed;
  r.error = request.script.string() + ":1:1: error: " + why;
  return r;
}

// The process that runs the script: limits, Landlock, then CPython; it sends the result and ends.
[[noreturn]] void runScriptProcess(const ScriptRequest& request, const Pipes& p, const std::string& tempDir) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  setpgid(0, 0);  // a group of its own: kill(0, ...) from the script reaches nothing of ccforge's
  close(p.status[1]);
  const int devNull = open("/dev/null", O_RDONLY);
  if (devNull >= 0) dup2(devNull, STDIN_FILENO);
  dup2(p.output[1], STDOUT_FILENO);
  dup2(p.errors[1], STDERR_FILENO);
  // A fault signal takes the kernel's default action, also where a sanitizer installed a handler in
  // ccforge: a script that sends one to itself ends (or, as a PID namespace's init, goes on) alike.
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) std::signal(sig, SIG_DFL);
  setLimit(RLIMIT_CPU, request.limits.cpuSeconds, request.limits.cpuSeconds + kGraceSeconds);
  setLimit(RLIMIT_CORE, 0, 0);
  setLimit(RLIMIT_FSIZE, request.limits.outputBytes, request.limits.outputBytes);
#if !defined(__SANITIZE_ADDRESS__)
  // AddressSanitizer reserves terabytes of address space up front: its builds run without this one.
  setLimit(RLIMIT_AS, request.limits.memoryBytes, request.limits.memoryBytes);
#endif
  setenv("TMPDIR", tempDir.c_str(), 1);
  prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
  restrictWithLandlock(tempDir);
  std::string bytes;
  try {
    bytes = encodeResult(runScript(request));
  } catch (const std::exception& e) {
    bytes = encodeResult(failedScript(request, std::string("the Python front end failed: ") + e.what()));
  }
  std::fflush(nullptr);
  _exit(writeAll(p.result[1], bytes.data(), bytes.size()) ? 0 : 1);
}

// The supervisor between ccforge and the script's process: it asks for namespaces of its own
// (user, network, PID: the script's process is then the PID namespace's init, and everything it
// starts ends with it), starts that process and reports how it ended, with its CPU time.
[[noreturn]] void superviseScript(const ScriptRequest& request, Pipes& p, const std::string& tempDir) {
  setpgid(0, 0);
  unshare(CLONE_NEWUSER | CLONE_NEWNET | CLONE_NEWPID);  // refused on some kernels: Landlock remains
  const pid_t script = fork();
  if (script == 0) runScriptProcess(request, p, tempDir);
  for (int fd : {p.result[1], p.output[1], p.errors[1]}) close(fd);
  std::array<long, 2> report{-1, 0};  // wait status, CPU milliseconds
  if (script > 0) {
    int status = 0;
    rusage usage{};
    while (wait4(script, &status, 0, &usage) < 0 && errno == EINTR) {
    }
    kill(-script, SIGKILL);  // whatever the script started in its group
    report = {status, usage.ru_utime.tv_sec * 1000 + usage.ru_utime.tv_usec / 1000 + usage.ru_stime.tv_sec * 1000 +
                          usage.ru_stime.tv_usec / 1000};
  }
  writeAll(p.status[1], reinterpret_cast<const char*>(report.data()), sizeof report);
  _exit(0);
}

// Reads the children's pipes until the supervisor reports or the wall-clock limit passes:
// the result whole (up to the memory limit), the script's output passed on up to its limit.
class Collector {
 public:
  Collector(const ScriptRequest& request, const Pipes& p) : request_(request), pipes_(p) {}

  // False when the wall-clock limit (and its grace) passed first.
  bool collect() {
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::seconds(request_.limits.wallSeconds + kGraceSeconds);
    std::array<pollfd, 4> fds{pollfd{pipes_.result[0], POLLIN, 0}, pollfd{pipes_.output[0], POLLIN, 0},
                              pollfd{pipes_.errors[0], POLLIN, 0}, pollfd{pipes_.status[0], POLLIN, 0}};
    while (!reported_) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) return false;
      const int n = poll(fds.data(), fds.size(), static_cast<int>(std::min<int64_t>(left.count(), 1000)));
      if (n < 0 && errno != EINTR) return false;
      for (size_t i = 0; i < fds.size(); ++i)
        if (fds[i].fd >= 0 && (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) && !drain(i, fds[i].fd)) fds[i].fd = -1;
    }
    // The script's process has ended: take what its pipes still hold (descendants it left behind
    // could keep them open, so nothing waits for their end).
    for (size_t i = 0; i < 3; ++i) {
      if (fds[i].fd < 0) continue;
      fcntl(fds[i].fd, F_SETFL, O_NONBLOCK);
      while (drain(i, fds[i].fd)) {
      }
    }
    return true;
  }

  const std::string& result() const { return result_; }
  bool resultTooLarge() const { return resultTooLarge_; }
  bool supervisorFailed() const { return report_[0] < 0; }
  int status() const { return static_cast<int>(report_[0]); }
  double cpuSeconds() const { return static_cast<double>(report_[1]) / 1000; }
  uint64_t outputDropped() const { return dropped_; }

 private:
  // False at the pipe's end (or when nothing more is there to read without waiting).
  bool drain(size_t which, int fd) {
    char buffer[1 << 16];
    const ssize_t n = read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) return true;
    if (n <= 0) {
      reported_ = reported_ || which == 3;  // the supervisor ended without a report: see supervisorFailed()
      return false;
    }
    const auto size = static_cast<size_t>(n);
    if (which == 0) {
      if (result_.size() + size > request_.limits.memoryBytes)
        resultTooLarge_ = true;
      else
        result_.append(buffer, size);
    } else if (which == 3) {
      statusBytes_.append(buffer, size);
      if (statusBytes_.size() >= sizeof report_) {
        std::memcpy(report_.data(), statusBytes_.data(), sizeof report_);
        reported_ = true;
      }
    } else {
      const uint64_t room = request_.limits.outputBytes > passed_ ? request_.limits.outputBytes - passed_ : 0;
      const size_t shown = static_cast<size_t>(std::min<uint64_t>(room, size));
      std::ostream& to = which == 1 ? std::cout : std::cerr;
      to.write(buffer, static_cast<std::streamsize>(shown));
      to.flush();
      passed_ += shown;
      dropped_ += size - shown;
    }
    return true;
  }

  const ScriptRequest& request_;
  const Pipes& pipes_;
  std::string result_, statusBytes_;
  bool resultTooLarge_ = false, reported_ = false;
  std::array<long, 2> report_{-1, 0};
  uint64_t passed_ = 0, dropped_ = 0;
};

ScriptResult outcome(const ScriptRequest& request, const Collector& c) {
  if (c.supervisorFailed()) return failedScript(request, "the script's process could not be started or watched");
  const int status = c.status();
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    if (sig == SIGXCPU || (sig == SIGKILL && c.cpuSeconds() >= request.limits.cpuSeconds))
      return failedScript(request, "the script used up its CPU time limit of " +
                                       std::to_string(request.limits.cpuSeconds) + " s (--script-cpu)");
    return failedScript(request, std::string("the script's process was ended by signal ") + std::to_string(sig) + " (" +
                                     strsignal(sig) + ")");
  }
  if (c.resultTooLarge())
    return failedScript(request, "the script's result is larger than its memory limit (--script-memory)");
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || c.result().empty())
    return failedScript(request, "the script's process ended (exit status " +
                                     std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) +
                                     ") without handing back a result, as os._exit() does");
  try {
    return decodeResult(c.result());
  } catch (const dsl::TransferError& e) {
    return failedScript(request, std::string("the script's result does not read back (") + e.what() +
                                     "): something in the script wrote to ccforge's result channel");
  }
}

void closePipes(Pipes& p) {
  for (auto* pair : {&p.result, &p.output, &p.errors, &p.status})
    for (int& fd : *pair)
      if (fd >= 0) close(std::exchange(fd, -1));
}

}  // namespace

ScriptResult runScriptInSandbox(const ScriptRequest& request) {
  const char* base = std::getenv("TMPDIR");
  std::string tempDir = std::string(base && *base ? base : "/tmp") + "/ccforge-script-XXXXXX";
  if (mkdtemp(tempDir.data()) == nullptr)
    throw std::runtime_error("cannot create a temporary directory for the script: " + std::string(strerror(errno)));
  Pipes p;
  for (auto* pair : {&p.result, &p.output, &p.errors, &p.status})
    if (pipe2(pair->data(), O_CLOEXEC) != 0) {
      closePipes(p);
      std::filesystem::remove_all(tempDir);
      throw std::runtime_error("cannot create a pipe for the script: " + std::string(strerror(errno)));
    }
  std::cout.flush();
  std::cerr.flush();
  const pid_t supervisor = fork();
  if (supervisor < 0) {
    closePipes(p);
    std::filesystem::remove_all(tempDir);
    throw std::runtime_error("cannot start the script's process: " + std::string(strerror(errno)));
  }
  if (supervisor == 0) superviseScript(request, p, tempDir);
  setpgid(supervisor, supervisor);  // as the supervisor does, so that no kill below can miss its group
  for (int* fd : {&p.result[1], &p.output[1], &p.errors[1], &p.status[1]}) close(std::exchange(*fd, -1));
  Collector collector(request, p);
  const bool inTime = collector.collect();
  kill(-supervisor, SIGKILL);  // the supervisor and its group; the script's process ends with it (PDEATHSIG)
  kill(supervisor, SIGKILL);
  while (waitpid(supervisor, nullptr, 0) < 0 && errno == EINTR) {
  }
  closePipes(p);
  std::error_code ignored;
  std::filesystem::remove_all(tempDir, ignored);
  ScriptResult result =
      inTime ? outcome(request, collector)
             : failedScript(request, "the script ran past its wall-clock limit of " +
                                         std::to_string(request.limits.wallSeconds) + " s (--script-wall)");
  if (collector.outputDropped() > 0)
    std::cerr << request.script.string() << ":1:1: note: " << collector.outputDropped()
              << " bytes of the script's output were left out past its limit of " << request.limits.outputBytes
              << " bytes (--script-output)\n";
  return result;
}

}  // namespace ccforge::python
