// nccl-tests-style tables (perf_table.hpp). The text layout follows nccl-tests' columns: size (B),
// count (elements), type, redop, root, then time (us), algbw (GB/s), busbw (GB/s) and #wrong for
// out-of-place and for in-place.
#include "driver/perf_table.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <map>
#include <stdexcept>

#include "base/byte_size.hpp"
#include "base/json_document.hpp"

namespace ccforge::driver {
namespace {

using nlohmann::ordered_json;

std::string printf1(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

// nccl-tests prints times with fewer decimals as they grow, so the column keeps its width.
std::string timeText(double us) {
  if (us < 1e4) return printf1("%.2f", us);
  if (us < 1e5) return printf1("%.1f", us);
  return printf1("%.0f", us);
}

std::string pad(const std::string& s, size_t width) {
  return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}

std::string cellText(const PerfCell& c) {
  if (c.status == PerfCell::Status::NotApplicable) return pad("N/A", 9) + pad("N/A", 8) + pad("N/A", 8) + pad("N/A", 7);
  if (c.status == PerfCell::Status::Skipped) return pad("skip", 9) + pad("skip", 8) + pad("skip", 8) + pad("skip", 7);
  return pad(timeText(c.timeUs), 9) + pad(printf1("%.2f", c.algbwGBps), 8) + pad(printf1("%.2f", c.busbwGBps), 8) +
         pad(c.wrong ? std::to_string(*c.wrong) : std::string("-"), 7);
}

const char* statusName(PerfCell::Status s) {
  switch (s) {
    case PerfCell::Status::Measured: return "measured";
    case PerfCell::Status::NotApplicable: return "n/a";
    case PerfCell::Status::Skipped: return "skipped";
  }
  return "?";
}

bool rowSkipped(const PerfRow& r) {
  bool measured = r.outOfPlace.status == PerfCell::Status::Measured || r.inPlace.status == PerfCell::Status::Measured;
  bool skipped = r.outOfPlace.status == PerfCell::Status::Skipped || r.inPlace.status == PerfCell::Status::Skipped;
  return !measured && skipped;
}

std::string skipReason(const PerfRow& r) {
  return r.outOfPlace.status == PerfCell::Status::Skipped ? r.outOfPlace.reason : r.inPlace.reason;
}

ordered_json cellJson(const PerfCell& c) {
  ordered_json j;
  j["status"] = statusName(c.status);
  if (c.status == PerfCell::Status::Measured) {
    j["time_us"] = c.timeUs;
    j["algbw_GBps"] = c.algbwGBps;
    j["busbw_GBps"] = c.busbwGBps;
    j["wrong"] = c.wrong ? ordered_json(*c.wrong) : ordered_json(nullptr);
    if (!c.program.empty()) j["program"] = c.program;
  }
  if (c.status == PerfCell::Status::Skipped) j["reason"] = c.reason;
  return j;
}

std::string csvQuoted(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char ch : s) out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return out + "\"";
}

void csvCell(std::string& line, const PerfCell& c) {
  line += std::string(",") + statusName(c.status);
  if (c.status == PerfCell::Status::Measured)
    line += "," + printf1("%.3f", c.timeUs) + "," + printf1("%.4f", c.algbwGBps) + "," + printf1("%.4f", c.busbwGBps) +
            "," + (c.wrong ? std::to_string(*c.wrong) : std::string());
  else
    line += ",,,,";
  line += "," + csvQuoted(c.status == PerfCell::Status::Skipped ? c.reason : std::string());
}

}  // namespace

std::vector<uint64_t> sweepSizes(uint64_t minBytes, uint64_t maxBytes, uint64_t factor) {
  if (minBytes == 0) throw std::invalid_argument("-b (minimum size) must be at least 1 byte");
  if (minBytes > maxBytes)
    throw std::invalid_argument("-b " + std::to_string(minBytes) + " is larger than -e " + std::to_string(maxBytes));
  if (factor < 2 && minBytes < maxBytes)
    throw std::invalid_argument("-f (the factor between sizes) must be at least 2");
  std::vector<uint64_t> sizes;
  for (uint64_t s = minBytes; s <= maxBytes;) {
    if (sizes.size() == kMaxSweepSizes)
      throw std::invalid_argument("the sweep has more than " + std::to_string(kMaxSweepSizes) +
                                  " sizes; raise -f or narrow -b/-e");
    sizes.push_back(s);
    if (s > maxBytes / factor) break;
    s *= factor;
  }
  return sizes;
}

std::vector<uint64_t> sweepSizes(std::string_view minText, std::string_view maxText, uint64_t factor) {
  auto bound = [](std::string_view text, const char* flag) {
    try {
      return base::parseByteSize(text);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(std::string(flag) + ": " + e.what());
    }
  };
  const uint64_t minBytes = bound(minText.empty() ? maxText : minText, "-b");
  return sweepSizes(minBytes, maxText.empty() ? minBytes : bound(maxText, "-e"), factor);
}

std::string ncclTestsTypeName(std::string_view name) {
  static const std::map<std::string, std::string, std::less<>> names = {
      {"f32", "float"}, {"f16", "half"},  {"bf16", "bfloat16"}, {"f64", "double"},
      {"i32", "int32"}, {"i64", "int64"}, {"u8", "uint8"}};
  auto it = names.find(name);
  return it == names.end() ? std::string(name) : it->second;
}

std::optional<double> averageBusBandwidth(const PerfTable& table) {
  double sum = 0;
  int64_t n = 0;
  for (const PerfRow& r : table.rows)
    for (const PerfCell* c : {&r.outOfPlace, &r.inPlace})
      if (c->status == PerfCell::Status::Measured) {
        sum += c->busbwGBps;
        ++n;
      }
  if (n == 0) return std::nullopt;
  return sum / static_cast<double>(n);
}

std::string perfTableText(const PerfTable& table) {
  std::string out;
  for (const std::string& line : table.preamble) out += "# " + line + "\n";
  out += "#" + std::string(61, ' ') + "out-of-place" + std::string(23, ' ') + "in-place\n";
  out += "#" + pad("size", 11) + pad("count", 14) + pad("type", 10) + pad("redop", 8) + pad("root", 8) +
         pad("time", 9) + pad("algbw", 8) + pad("busbw", 8) + pad("#wrong", 7) + pad("time", 9) + pad("algbw", 8) +
         pad("busbw", 8) + pad("#wrong", 7) + "\n";
  out += "#" + pad("(B)", 11) + pad("(elements)", 14) + std::string(26, ' ') + pad("(us)", 9) + pad("(GB/s)", 8) +
         pad("(GB/s)", 8) + std::string(7, ' ') + pad("(us)", 9) + pad("(GB/s)", 8) + pad("(GB/s)", 8) + "\n";
  for (const PerfRow& r : table.rows) {
    std::string line = pad(std::to_string(r.bytes), 12) + pad(std::to_string(r.count), 14) + pad(r.type, 10) +
                       pad(r.redop, 8) + pad(std::to_string(r.root), 8);
    if (rowSkipped(r)) {
      line += "   skipped: " + skipReason(r);
    } else {
      line += cellText(r.outOfPlace) + cellText(r.inPlace);
    }
    out += line + "\n";
  }
  for (const PerfRow& r : table.rows) {
    if (rowSkipped(r)) continue;
    if (r.outOfPlace.status == PerfCell::Status::Skipped)
      out += "# " + std::to_string(r.bytes) + " B out-of-place skipped: " + r.outOfPlace.reason + "\n";
    if (r.inPlace.status == PerfCell::Status::Skipped)
      out += "# " + std::to_string(r.bytes) + " B in-place skipped: " + r.inPlace.reason + "\n";
  }
  auto avg = averageBusBandwidth(table);
  out += "# Avg bus bandwidth    : " + (avg ? printf1("%g", *avg) : std::string("N/A (nothing measured)")) + "\n";
  return out;
}

std::string perfTableJson(const PerfTable& table) {
  ordered_json rows = ordered_json::array();
  for (const PerfRow& r : table.rows)
    rows.push_back({{"size_bytes", r.bytes},
                    {"count", r.count},
                    {"type", r.type},
                    {"redop", r.redop},
                    {"root", r.root},
                    {"out_of_place", cellJson(r.outOfPlace)},
                    {"in_place", cellJson(r.inPlace)}});
  ordered_json j;
  j["rows"] = rows;
  auto avg = averageBusBandwidth(table);
  j["avg_busbw_GBps"] = avg ? ordered_json(*avg) : ordered_json(nullptr);
  return base::jsonDocument(j);
}

std::string perfTableCsv(const PerfTable& table) {
  std::string out =
      "size_bytes,count,type,redop,root,oop_status,oop_time_us,oop_algbw_GBps,oop_busbw_GBps,oop_wrong,oop_reason,"
      "ip_status,ip_time_us,ip_algbw_GBps,ip_busbw_GBps,ip_wrong,ip_reason,oop_program,ip_program\n";
  for (const PerfRow& r : table.rows) {
    std::string line = std::to_string(r.bytes) + "," + std::to_string(r.count) + "," + csvQuoted(r.type) + "," +
                       csvQuoted(r.redop) + "," + std::to_string(r.root);
    csvCell(line, r.outOfPlace);
    csvCell(line, r.inPlace);
    out += line + "," + csvQuoted(r.outOfPlace.program) + "," + csvQuoted(r.inPlace.program) + "\n";
  }
  return out;
}

}  // namespace ccforge::driver
