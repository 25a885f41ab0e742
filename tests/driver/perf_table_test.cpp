// The nccl-tests-style table (driver/perf_table.hpp): sweeps as nccl-tests reads
// -b/-e/-f, the columns and closing line of its text output, and the JSON/CSV forms.
#include <catch2/catch.hpp>

#include <sstream>
#include <stdexcept>

#include "driver/perf_table.hpp"

using namespace ccforge::driver;
using Catch::Matchers::Contains;

TEST_CASE("nccl-tests sweep from -b/-e text: nccl-tests' sizes and ccforge's, an empty bound takes the other") {
  CHECK(sweepSizes("8", "128", 2) == std::vector<uint64_t>{8, 16, 32, 64, 128});
  CHECK(sweepSizes("1K", "4KiB", 2) == std::vector<uint64_t>{1024, 2048, 4096});
  CHECK(sweepSizes("", "2g", 2) == std::vector<uint64_t>{2147483648u});
  CHECK(sweepSizes("1KB", "", 2) == std::vector<uint64_t>{1024});
  CHECK_THROWS_WITH(sweepSizes("0", "8", 2), Contains("-b (minimum size) must be at least 1 byte"));
  CHECK_THROWS_WITH(sweepSizes("1X", "8", 2), Contains("-b: size '1X': unknown unit"));
  CHECK_THROWS_WITH(sweepSizes("8", "-8", 2), Contains("-e: size '-8' does not start with a number"));
  CHECK_THROWS_WITH(sweepSizes("8", "18446744073709551615G", 2),
                    Contains("-e: size '18446744073709551615G' is too large"));
}

TEST_CASE("nccl-tests sweep: -b 8 -e 128 -f 2 and its refusals") {
  CHECK(sweepSizes(8, 128, 2) == std::vector<uint64_t>{8, 16, 32, 64, 128});
  CHECK(sweepSizes(1024, 1024, 2) == std::vector<uint64_t>{1024});
  CHECK(sweepSizes(1, 100, 10) == std::vector<uint64_t>{1, 10, 100});
  CHECK(sweepSizes(3, 20, 4) == std::vector<uint64_t>{3, 12});
  CHECK_THROWS_AS(sweepSizes(16, 8, 2), std::invalid_argument);
  CHECK_THROWS_AS(sweepSizes(8, 16, 1), std::invalid_argument);
  CHECK(sweepSizes(1, UINT64_MAX, 2).size() == 64);  // 1 .. 2^63, no overflow
}

TEST_CASE("nccl-tests type names") {
  CHECK(ncclTestsTypeName("f32") == "float");
  CHECK(ncclTestsTypeName("f16") == "half");
  CHECK(ncclTestsTypeName("bf16") == "bfloat16");
  CHECK(ncclTestsTypeName("f64") == "double");
  CHECK(ncclTestsTypeName("i32") == "int32");
  CHECK(ncclTestsTypeName("u8") == "uint8");
}

namespace {

PerfTable sampleTable() {
  PerfTable t;
  t.preamble.push_back("sample");
  PerfRow a;
  a.bytes = 1024;
  a.count = 256;
  a.type = "float";
  a.redop = "sum";
  a.outOfPlace = {PerfCell::Status::Measured, 10.0, 0.1024, 0.1536, 0, "", "ring.xml"};
  a.inPlace = {PerfCell::Status::NotApplicable, 0, 0, 0, std::nullopt, "", ""};
  PerfRow b = a;
  b.bytes = 12;
  b.count = 3;
  b.outOfPlace = {
      PerfCell::Status::Skipped, 0, 0, 0, std::nullopt, "count 3 is not a multiple of nchunksperloop 4", ""};
  PerfRow c = a;
  c.bytes = 2048;
  c.count = 512;
  c.outOfPlace = {PerfCell::Status::Measured, 20.0, 0.1024, 0.5, 2, "", "tree, v2.xml"};
  t.rows = {a, b, c};
  return t;
}

std::vector<std::string> fields(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  for (std::string f; in >> f;) out.push_back(f);
  return out;
}

}  // namespace

TEST_CASE("nccl-tests table: columns, N/A, skipped rows and the average bus bandwidth") {
  PerfTable t = sampleTable();
  // Mean of the measured busbw values, 0.1536 and 0.5.
  REQUIRE(averageBusBandwidth(t));
  CHECK(*averageBusBandwidth(t) == (0.1536 + 0.5) / 2);
  std::string text = perfTableText(t);
  std::istringstream in(text);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  REQUIRE(lines.size() == 8);
  CHECK(lines[0] == "# sample");
  CHECK_THAT(lines[1], Contains("out-of-place") && Contains("in-place"));
  CHECK(fields(lines[2]) == std::vector<std::string>{"#", "size", "count", "type", "redop", "root", "time", "algbw",
                                                     "busbw", "#wrong", "time", "algbw", "busbw", "#wrong"});
  CHECK(fields(lines[4]) == std::vector<std::string>{"1024", "256", "float", "sum", "-1", "10.00", "0.10", "0.15", "0",
                                                     "N/A", "N/A", "N/A", "N/A"});
  CHECK_THAT(lines[5], Contains("skipped: count 3 is not a multiple of nchunksperloop 4"));
  CHECK(fields(lines[5])[0] == "12");
  CHECK(fields(lines[6]) == std::vector<std::string>{"2048", "512", "float", "sum", "-1", "20.00", "0.10", "0.50", "2",
                                                     "N/A", "N/A", "N/A", "N/A"});
  CHECK(lines[7] == "# Avg bus bandwidth    : 0.3268");
}

TEST_CASE("nccl-tests table: json and csv carry the same rows") {
  PerfTable t = sampleTable();
  std::string json = perfTableJson(t);
  CHECK_THAT(json, Contains("\"size_bytes\": 1024"));
  CHECK_THAT(json, Contains("\"status\": \"n/a\""));
  CHECK_THAT(json, Contains("\"reason\": \"count 3 is not a multiple of nchunksperloop 4\""));
  CHECK_THAT(json, Contains("\"avg_busbw_GBps\": 0.3268"));
  CHECK_THAT(json, Contains("\"program\": \"ring.xml\""));
  std::string csv = perfTableCsv(t);
  std::istringstream in(csv);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  REQUIRE(lines.size() == 4);
  CHECK(lines[0].rfind("size_bytes,count,type,redop,root,oop_status,oop_time_us", 0) == 0);
  CHECK(lines[1] == "1024,256,float,sum,-1,measured,10.000,0.1024,0.1536,0,,n/a,,,,,,ring.xml,");
  CHECK(lines[2] == "12,3,float,sum,-1,skipped,,,,,count 3 is not a multiple of nchunksperloop 4,n/a,,,,,,,");
  CHECK(lines[3] == "2048,512,float,sum,-1,measured,20.000,0.1024,0.5000,2,,n/a,,,,,,\"tree, v2.xml\",");
}

TEST_CASE("nccl-tests table: nothing measured has no average") {
  PerfTable t = sampleTable();
  t.rows = {t.rows[1]};
  CHECK_FALSE(averageBusBandwidth(t));
  CHECK_THAT(perfTableText(t), Contains("# Avg bus bandwidth    : N/A"));
}
