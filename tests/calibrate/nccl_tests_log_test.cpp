// nccl-tests output as users paste it (calibrate/nccl_tests_log.hpp). The tables below are written
// for these tests in nccl-tests' layouts (old and new); the real logs are in
// tests/fixtures/nccl-tests-logs.
#include <catch2/catch.hpp>

#include "calibrate/nccl_tests_log.hpp"
#include "base/input_error.hpp"

using namespace ccforge;
using namespace ccforge::calibrate;

namespace {

const char* kModern = R"(# nccl-tests version 2.17.8 nccl-headers=22902 nccl-library=22902
# Collective test starting: all_gather_perf
# nThread 1 nGpus 8 minBytes 1024 maxBytes 2048 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0
#
# Using devices
#  Rank  0 Group  0 Pid 1 on hostA device  0 [0000:1b:00] NVIDIA H100 80GB HBM3
#  Rank  1 Group  0 Pid 1 on hostA device  1 [0000:43:00] NVIDIA H100 80GB HBM3
#
#                                                              out-of-place                       in-place
#       size         count      type   redop    root     time   algbw   busbw  #wrong     time   algbw   busbw  #wrong
#        (B)    (elements)                               (us)  (GB/s)  (GB/s)             (us)  (GB/s)  (GB/s)
        1024           128     float    none      -1    10.00    0.10    0.05       0     9.00    0.11    0.06       0
        2048           256     float    none      -1    11.00    0.19    0.09       2    10.00    0.20    0.10       0
# Out of bounds values : 0 OK
# Collective test concluded: all_gather_perf
# Collective test starting: alltoall_perf
#       size         count      type   redop    root     time   algbw   busbw  #wrong     time   algbw   busbw  #wrong
        4096           512     float    none      -1    20.00    0.20    0.10       0      N/A     N/A     N/A     N/A
)";

}  // namespace

TEST_CASE("nccl-tests log: a modern log with two collectives, the devices, the version, #wrong cells left out") {
  const std::vector<NcclTestsTable> tables = readNcclTestsLog(kModern, "log.txt");
  REQUIRE(tables.size() == 2);
  const NcclTestsTable& ag = tables[0];
  CHECK(ag.collective == semantics::CollectiveType::AllGather);
  CHECK(ag.ncclVersion == "2.29.2");
  CHECK(ag.gpusPerThread == 8);
  REQUIRE(ag.devices.size() == 2);
  CHECK(ag.devices[1].model == "NVIDIA H100 80GB HBM3");
  CHECK(ag.devices[1].host == "hostA");
  CHECK(ag.ranks() == 2);
  REQUIRE(ag.rows.size() == 2);
  CHECK(ag.rows[0].bytes == 1024);
  CHECK(*ag.rows[0].outOfPlace.timeUs == 10.0);
  CHECK(*ag.rows[0].inPlace.timeUs == 9.0);
  CHECK(ag.rows[0].where.line == 12);
  // 2048 B out of place had 2 wrong elements: its numbers are not used.
  CHECK_FALSE(ag.rows[1].outOfPlace.timeUs);
  CHECK(ag.rows[1].outOfPlace.wrong == 2);
  REQUIRE(ag.notes.size() == 1);
  CHECK_THAT(ag.notes[0], Catch::Contains("#wrong 2"));
  const NcclTestsTable& a2a = tables[1];
  CHECK(a2a.collective == semantics::CollectiveType::AllToAll);
  CHECK_FALSE(a2a.rows[0].inPlace.timeUs);  // N/A
}

TEST_CASE("nccl-tests log: the old layout (no root, 'error' deviations), an alltoall without redop, MPI's prefixes") {
  const char* old = R"(mpirun -np 2 ./build/all_reduce_perf -b 8 -e 16
[1,0]<stdout>:# nThread 1 nGpus 1 minBytes 8 maxBytes 16 step: 2(factor) warmup iters: 5 iters: 20 validation: 1
[1,0]<stdout>:#       size         count    type   redop     time   algbw   busbw  error     time   algbw   busbw  error
[1,0]<stdout>:           8             2   float     sum    48.46    0.00    0.00  1e-07    48.17    0.00    0.00  1e-07
0:           16             4   float     sum    48.61    0.00    0.00  2e+00    49.16    0.00    0[1,1]<stdout>:.00  6e-08
)";
  const std::vector<NcclTestsTable> tables = readNcclTestsLog(old, "old.txt");
  REQUIRE(tables.size() == 1);
  CHECK(tables[0].collective == semantics::CollectiveType::AllReduce);  // from the command line
  REQUIRE(tables[0].rows.size() == 2);
  CHECK(*tables[0].rows[0].outOfPlace.timeUs == 48.46);  // a deviation of 1e-07 is rounding
  CHECK_FALSE(tables[0].rows[1].outOfPlace.timeUs);      // 2 is wrong data
  CHECK(*tables[0].rows[1].inPlace.timeUs == 49.16);     // the run-in MPI tag is cut out
  const char* alltoall = R"(# Collective test starting: alltoall_perf
#       size         count    type   redop     time   algbw   busbw  error     time   algbw   busbw  error
        1024            32   float             1.63    0.63    0.55    N/A     1.38    0.74    0.65    N/A
)";
  CHECK(*readNcclTestsLog(alltoall, "a2a.txt").at(0).rows.at(0).outOfPlace.busbwGBps == 0.55);
}

TEST_CASE("nccl-tests log: pages that drop the '#', rows without a header, ranks from busbw / algbw") {
  const char* page =
      R"(size         count      type   redop    root     time   algbw   busbw  #wrong     time   algbw   busbw  #wrong
(B)    (elements)                               (us)  (GB/s)  (GB/s)             (us)  (GB/s)  (GB/s)
   1073741824     268435456     float     sum      -1   4512.0  237.98  446.21      0   4510.0  238.08  446.40      0
)";
  const NcclTestsTable t = readNcclTestsLog(page, "page.txt", semantics::CollectiveType::AllReduce).at(0);
  CHECK(t.ranks() == 16);  // 446.21 / 237.98 = 1.875 = 2 x 15 / 16
  const char* rows =
      "     1048576        262144     float     sum      -1    78.77   13.31   23.29      0    81.31   12.90   22.57   "
      "   0\n";
  const NcclTestsTable r = readNcclTestsLog(rows, "rows.txt", semantics::CollectiveType::AllReduce).at(0);
  CHECK(r.rows.size() == 1);
  CHECK_THAT(r.notes.at(0), Catch::Contains("without a header"));
}

TEST_CASE("nccl-tests log: what NCCL reports as set by the environment") {
  const char* log = R"(host:1:1 [0] NCCL INFO NCCL_ALGO set by environment to ring
# Collective test starting: all_reduce_perf
#       size         count      type   redop    root     time   algbw   busbw  #wrong     time   algbw   busbw  #wrong
        1024           256     float     sum      -1    10.00    0.10    0.18       0     9.00    0.11    0.20       0
)";
  CHECK(readNcclTestsLog(log, "env.txt").at(0).environment.at("NCCL_ALGO") == "ring");
}

TEST_CASE("nccl-tests log: bad logs are located errors") {
  auto message = [](const std::string& text, std::optional<semantics::CollectiveType> c = std::nullopt) {
    try {
      readNcclTestsLog(text, "bad.txt", c);
    } catch (const base::InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(message("nothing here\n") == "bad.txt: no nccl-tests table (a '#  size  count ...' header and its rows)");
  const std::string header =
      "#       size         count      type   redop    root     time   algbw   busbw  #wrong     time   algbw   busbw  "
      "#wrong\n";
  CHECK(message("# Collective test starting: all_reduce_perf\n" + header +
                "        1024           256     float     sum      -1    10.00    0.10\n") ==
        "bad.txt:3:9: truncated row: 7 of the header's 13 columns (header at line 2)");
  CHECK_THAT(
      message(header + "        1024           256     float     sum      -1    10.00    0.10    0.18       0     9.00 "
                       "   0.11    0.20       0\n"),
      Catch::StartsWith("bad.txt:1:1: the log does not say which collective") && Catch::EndsWith("give --collective"));
  CHECK_THAT(message("# Collective test starting: sendrecv_perf\n" + header +
                     "        1024           256     float     sum      -1    10.00    0.10    0.18       0     9.00   "
                     " 0.11    0.20       0\n"),
             Catch::StartsWith("bad.txt:1:29: 'sendrecv_perf' is not modelled"));
  CHECK_THAT(message(header + "        1024           256     float     sum      -1    ten    0.10    0.18       0     "
                              "9.00    0.11    0.20       0\n",
                     semantics::CollectiveType::AllReduce),
             Catch::StartsWith("bad.txt:2:9: the time column holds 'ten'"));
}
