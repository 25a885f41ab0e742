// Running another program with a limit (base/bounded_process.hpp), with the POSIX tools every
// Debian machine has.
#include <catch2/catch.hpp>

#include <chrono>
#include <string>

#include "base/bounded_process.hpp"

using ccforge::base::ProcessOutcome;
using ccforge::base::runBounded;
using namespace std::chrono_literals;

TEST_CASE("bounded process: exit status, a program that is not there, input fed whole") {
  CHECK(runBounded({"true"}, "", 10s).succeeded());
  const ProcessOutcome failed = runBounded({"false"}, "", 10s);
  CHECK(failed.kind == ProcessOutcome::Kind::Exited);
  CHECK(failed.code == 1);
  CHECK(runBounded({"ccforge-no-such-program"}, "", 10s).kind == ProcessOutcome::Kind::NotStarted);
  // The shell exits 0 only when wc counts every byte: 3 MiB of input arrive whole.
  CHECK(runBounded({"sh", "-c", "test \"$(wc -c)\" -eq 3145728"}, std::string(3 << 20, 'x'), 30s).succeeded());
  CHECK_FALSE(runBounded({"sh", "-c", "test \"$(wc -c)\" -eq 3145727"}, std::string(3 << 20, 'x'), 30s).succeeded());
}

TEST_CASE("bounded process: a program past its limit is stopped, even one that stops reading its input") {
  const auto start = std::chrono::steady_clock::now();
  const ProcessOutcome slow = runBounded({"sleep", "20"}, "", 300ms);
  CHECK(slow.kind == ProcessOutcome::Kind::TimedOut);
  const ProcessOutcome stuck = runBounded({"sleep", "20"}, std::string(16 << 20, 'x'), 300ms);
  CHECK(stuck.kind == ProcessOutcome::Kind::TimedOut);
  CHECK(std::chrono::steady_clock::now() - start < 5s);
  const ProcessOutcome early = runBounded({"head", "-c", "1"}, std::string(16 << 20, 'x'), 10s);
  CHECK(early.kind == ProcessOutcome::Kind::Exited);
  CHECK_FALSE(early.inputDelivered);
  CHECK_FALSE(early.succeeded());
}
