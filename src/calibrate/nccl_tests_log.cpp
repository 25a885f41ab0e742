#include "calibrate/nccl_tests_log.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <set>

#include "base/input_error.hpp"

namespace ccforge::calibrate {
namespace {

struct Binary {
  std::string_view name;
  std::optional<semantics::CollectiveType> collective;  // nullopt: an nccl-tests binary the model does not cover
};
constexpr Binary kBinaries[] = {
    {"all_reduce", semantics::CollectiveType::AllReduce},
    {"all_gather", semantics::CollectiveType::AllGather},
    {"reduce_scatter", semantics::CollectiveType::ReduceScatter},
    {"alltoall", semantics::CollectiveType::AllToAll},
    {"broadcast", semantics::CollectiveType::Broadcast},
    {"reduce", semantics::CollectiveType::Reduce},
    {"sendrecv", std::nullopt},
    {"gather", std::nullopt},
    {"scatter", std::nullopt},
    {"hypercube", std::nullopt},
};

// The largest "error" (older nccl-tests' relative deviation) that is rounding, not wrong data.
constexpr double kMaxDeviation = 1e-3;

std::vector<std::string_view> split(std::string_view line) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    size_t j = i;
    while (j < line.size() && line[j] != ' ' && line[j] != '\t' && line[j] != '\r') ++j;
    if (j > i) out.push_back(line.substr(i, j - i));
    i = j;
  }
  return out;
}

template <typename T>
std::optional<T> number(std::string_view s) {
  T v{};
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  if constexpr (std::is_floating_point_v<T>)
    if (!std::isfinite(v)) return std::nullopt;
  return v;
}

// What MPI, srun and the shell put before nccl-tests' own text: indentation, "[0] ",
// "[1,0]<stdout>:", srun --label's "0: ".
size_t contentStart(std::string_view line) {
  size_t i = 0;
  auto blanks = [&] {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
  };
  auto digits = [&](size_t from) {
    while (from < line.size() && ((line[from] >= '0' && line[from] <= '9') || line[from] == ',')) ++from;
    return from;
  };
  blanks();
  if (i < line.size() && line[i] == '[') {
    const size_t j = digits(i + 1);
    if (j > i + 1 && j < line.size() && line[j] == ']') {
      i = j + 1;
      for (std::string_view tag : {"<stdout>:", "<stderr>:"})
        if (line.substr(i, tag.size()) == tag) i += tag.size();
      blanks();
    }
  } else if (const size_t j = digits(i); j > i && j + 1 < line.size() && line[j] == ':' && line[j + 1] == ' ') {
    i = j + 2;
    blanks();
  }
  return i;
}

// A line with MPI's tags of other ranks' output run into it ("0[1,0]<stdout>:"): the tags cut out.
std::string withoutMpiTags(std::string_view line) {
  std::string out(line);
  for (size_t at = out.find("]<std"); at != std::string::npos; at = out.find("]<std")) {
    size_t begin = out.rfind('[', at);
    size_t end = out.find(">:", at);
    if (begin == std::string::npos || end == std::string::npos) break;
    out.erase(begin, end + 2 - begin);
  }
  return out;
}

// The nccl-tests binary a line names ("all_gather_perf", "./build/alltoall_perf"), if any.
std::optional<std::pair<const Binary*, size_t>> binaryNamed(std::string_view line) {
  for (size_t at = line.find("_perf"); at != std::string_view::npos; at = line.find("_perf", at + 1)) {
    const size_t end = at + 5;
    if (end < line.size() && (std::isalnum(static_cast<unsigned char>(line[end])) || line[end] == '_')) continue;
    size_t begin = at;
    while (begin > 0 && (std::isalnum(static_cast<unsigned char>(line[begin - 1])) || line[begin - 1] == '_')) --begin;
    const std::string_view name = line.substr(begin, at - begin);
    for (const Binary& b : kBinaries)
      if (b.name == name) return std::pair{&b, begin};
  }
  return std::nullopt;
}

// "2.29.2" from nccl-tests' "nccl-library=22902" (major * 10000 + minor * 100 + patch).
std::string versionOfCode(std::string_view code) {
  const std::optional<int64_t> v = number<int64_t>(code);
  if (!v || *v < 10000) return std::string(code);
  return std::to_string(*v / 10000) + "." + std::to_string(*v / 100 % 100) + "." + std::to_string(*v % 100);
}

class LogReader {
 public:
  LogReader(std::string_view text, std::string source, std::optional<semantics::CollectiveType> collective)
      : text_(text), source_(std::move(source)), given_(collective) {}

  std::vector<NcclTestsTable> read() {
    uint32_t lineNo = 0;
    for (size_t pos = 0; pos <= text_.size();) {
      size_t end = text_.find('\n', pos);
      if (end == std::string_view::npos) end = text_.size();
      ++lineNo;
      const std::string_view raw = text_.substr(pos, end - pos);
      const size_t start = contentStart(raw);
      const std::string content = withoutMpiTags(raw.substr(start));
      line(content, {lineNo, static_cast<uint32_t>(start + 1)});
      pos = end + 1;
    }
    finishTable();
    if (tables_.empty())
      throw base::InputError(source_, {}, "no nccl-tests table (a '#  size  count ...' header and its rows)");
    return tables_;
  }

 private:
  [[noreturn]] void fail(base::TextLocation where, const std::string& message) const {
    throw base::InputError(source_, where, message);
  }

  void line(std::string_view text, base::TextLocation where) {
    // A new collective's table begins: the last one ends before this line names the next binary.
    if (text.find("Collective test starting:") != std::string_view::npos) finishTable();
    if (auto b = binaryNamed(text)) {
      binary_ = b->first;
      binaryWhere_ = {where.line, static_cast<uint32_t>(where.column + b->second)};
    }
    if (auto v = text.find("NCCL version "); v != std::string_view::npos) {
      const std::vector<std::string_view> words = split(text.substr(v + 13));
      if (!words.empty()) header_.ncclVersion = std::string(words.front());
    }
    if (auto v = text.find("nccl-library="); v != std::string_view::npos) {
      const std::vector<std::string_view> words = split(text.substr(v + 13));
      if (!words.empty()) header_.ncclVersion = versionOfCode(words.front());
    }
    if (auto e = text.find(" set by environment to "); e != std::string_view::npos) {
      const std::vector<std::string_view> before = split(text.substr(0, e));
      const std::vector<std::string_view> after = split(text.substr(e + 23));
      if (!before.empty() && !after.empty() && before.back().substr(0, 5) == "NCCL_")
        header_.environment[std::string(before.back())] = std::string(after.front());
    }
    if (!text.empty() && text.front() == '#') {
      comment(text.substr(1), where);
      return;
    }
    const std::vector<std::string_view> words = split(text);
    if (words.size() >= 2 && words[0] == "size" && words[1] == "count") {  // pages that drop nccl-tests' '#'
      comment(text, where);
      return;
    }
    if (words.size() < 2 || !number<uint64_t>(words[0]) || !number<int64_t>(words[1])) return;
    if (columns_.empty()) {
      // Rows without their header (an excerpt): nccl-tests' columns, with a root column when
      // the row is wide enough for one.
      if (words.size() != 12 && words.size() != 13) return;
      columns_ = words.size() == 13
                     ? std::vector<std::string>{"size",  "count",  "type", "redop", "root",  "time",  "algbw",
                                                "busbw", "#wrong", "time", "algbw", "busbw", "#wrong"}
                     : std::vector<std::string>{"size",  "count",  "type", "redop", "time",  "algbw",
                                                "busbw", "#wrong", "time", "algbw", "busbw", "#wrong"};
      timeColumns_ = words.size() == 13 ? std::vector<size_t>{5, 9} : std::vector<size_t>{4, 8};
      columnsWhere_ = where;
      notes_.push_back("line " + std::to_string(where.line) + ": rows without a header: nccl-tests' " +
                       std::to_string(words.size()) + " columns assumed");
    }
    row(words, where);
  }

  void comment(std::string_view text, base::TextLocation where) {
    const std::vector<std::string_view> words = split(text);
    if (words.empty()) return;
    if (text.find("Collective test starting:") != std::string_view::npos) return;  // handled in line()
    if (words[0] == "nThread" && words.size() >= 4) {
      if (!rows_.empty()) finishTable();
      header_.threads = number<int32_t>(words[1]).value_or(1);
      header_.gpusPerThread = number<int32_t>(words[3]).value_or(1);
      return;
    }
    if (words[0] == "Using" && words.size() >= 2 && words[1] == "devices") {
      if (!rows_.empty()) finishTable();
      header_.devices.clear();
      return;
    }
    if (words[0] == "Rank" && words.size() >= 2) {
      device(text, words, where);
      return;
    }
    if (std::find(words.begin(), words.end(), "size") != words.end() &&
        std::find(words.begin(), words.end(), "count") != words.end()) {
      if (!rows_.empty()) finishTable();
      columns_.assign(words.begin(), words.end());
      columnsWhere_ = where;
      timeColumns_.clear();
      for (size_t i = 0; i < columns_.size(); ++i)
        if (columns_[i] == "time") timeColumns_.push_back(i);
      if (timeColumns_.empty() || columns_[0] != "size" || columns_[1] != "count")
        fail(where, "a table header without 'size count ... time' columns: not an nccl-tests table");
    }
  }

  void device(std::string_view text, const std::vector<std::string_view>& words, base::TextLocation where) {
    LogDevice d;
    d.rank = number<int32_t>(words[1]).value_or(static_cast<int32_t>(header_.devices.size()));
    d.where = where;
    for (size_t i = 0; i + 1 < words.size(); ++i)
      if (words[i] == "on") d.host = std::string(words[i + 1]);
    if (auto close = text.find(']'); close != std::string_view::npos) {
      std::string_view model = text.substr(close + 1);
      while (!model.empty() && (model.front() == ' ' || model.front() == '\t')) model.remove_prefix(1);
      while (!model.empty() && (model.back() == ' ' || model.back() == '\r' || model.back() == '\t'))
        model.remove_suffix(1);
      d.model = std::string(model);
    }
    header_.devices.push_back(std::move(d));
  }

  void row(std::vector<std::string_view> words, base::TextLocation where) {
    // Older nccl-tests print an empty redop for collectives without one (alltoall, allgather).
    const auto redop = std::find(columns_.begin(), columns_.end(), "redop");
    if (words.size() + 1 == columns_.size() && redop != columns_.end()) {
      const auto at = static_cast<size_t>(redop - columns_.begin());
      if (at < words.size() && number<double>(words[at]))
        words.insert(words.begin() + static_cast<std::ptrdiff_t>(at), "");
    }
    if (words.size() < columns_.size())
      fail(where, "truncated row: " + std::to_string(words.size()) + " of the header's " +
                      std::to_string(columns_.size()) + " columns (header at line " +
                      std::to_string(columnsWhere_.line) + ")");
    if (words.size() > columns_.size())
      fail(where, "a row of " + std::to_string(words.size()) + " columns under a header of " +
                      std::to_string(columns_.size()) + " (line " + std::to_string(columnsWhere_.line) + ")");
    LogRow r;
    r.where = where;
    r.bytes = *number<uint64_t>(words[0]);
    r.count = *number<int64_t>(words[1]);
    r.type = std::string(words[2]);
    for (size_t form = 0; form < timeColumns_.size() && form < 2; ++form) {
      LogCell& cell = form == 0 ? r.outOfPlace : r.inPlace;
      const size_t t = timeColumns_[form];
      auto value = [&](size_t offset, const char* what) -> std::optional<double> {
        if (t + offset >= words.size()) return std::nullopt;
        const std::string_view w = words[t + offset];
        if (w == "N/A") return std::nullopt;
        const std::optional<double> v = number<double>(w);
        if (!v || *v < 0)
          fail(where, std::string("the ") + what + " column holds '" + std::string(w) + "', not a number");
        return v;
      };
      cell.timeUs = value(0, "time");
      cell.algbwGBps = value(1, "algbw");
      cell.busbwGBps = value(2, "busbw");
      // "#wrong" counts wrong elements; older nccl-tests print "error", the largest relative
      // deviation, which float sums keep near 1e-7.
      const bool deviation = t + 3 < columns_.size() && columns_[t + 3] == "error";
      if (const std::optional<double> found = value(3, "#wrong"); found && *found > (deviation ? kMaxDeviation : 0)) {
        const auto wrong = static_cast<int64_t>(std::max<double>(1, std::llround(*found)));
        notes_.push_back("line " + std::to_string(where.line) + ": " + std::to_string(r.bytes) + " B " +
                         (form == 0 ? "out-of-place" : "in-place") + " has #wrong " + std::to_string(wrong) +
                         ": left out");
        cell = LogCell{};
        cell.wrong = wrong;
      }
    }
    rows_.push_back(std::move(r));
  }

  void finishTable() {
    if (rows_.empty()) return;
    NcclTestsTable table = header_;
    table.source = source_;
    table.rows = std::move(rows_);
    table.notes = std::move(notes_);
    rows_.clear();
    notes_.clear();
    if (binary_) {
      if (!binary_->collective)
        fail(binaryWhere_,
             "'" + std::string(binary_->name) +
                 "_perf' is not modelled (ccforge calibrates from all_reduce, all_gather, reduce_scatter, "
                 "alltoall, broadcast and reduce)");
      table.collective = *binary_->collective;
      table.where = binaryWhere_;
    } else if (given_) {
      table.collective = *given_;
      table.where = columnsWhere_;
    } else {
      fail(columnsWhere_,
           "the log does not say which collective this table is (no '# Collective test starting:' line "
           "or *_perf command): give --collective");
    }
    binary_ = nullptr;
    tables_.push_back(std::move(table));
  }

  std::string_view text_;
  std::string source_;
  std::optional<semantics::CollectiveType> given_;
  NcclTestsTable header_;
  const Binary* binary_ = nullptr;
  base::TextLocation binaryWhere_;
  std::vector<std::string> columns_;
  std::vector<size_t> timeColumns_;
  base::TextLocation columnsWhere_;
  std::vector<LogRow> rows_;
  std::vector<std::string> notes_;
  std::vector<NcclTestsTable> tables_;
};

}  // namespace

std::optional<int32_t> NcclTestsTable::ranks() const {
  if (!devices.empty()) return static_cast<int32_t>(devices.size());
  // No device list (a page that left it out): the ranks the busbw / algbw factor of the row with
  // the largest algbw implies, 2(n-1)/n or (n-1)/n (broadcast and reduce tell nothing).
  const LogRow* best = nullptr;
  for (const LogRow& r : rows)
    if (r.outOfPlace.algbwGBps && r.outOfPlace.busbwGBps && *r.outOfPlace.algbwGBps > 0 &&
        (!best || *r.outOfPlace.algbwGBps > *best->outOfPlace.algbwGBps))
      best = &r;
  if (!best) return std::nullopt;
  const double f = *best->outOfPlace.busbwGBps / *best->outOfPlace.algbwGBps;
  const double n = collective == semantics::CollectiveType::AllReduce ? 2 / (2 - f) : f < 1 ? 1 / (1 - f) : 0;
  if (!(n >= 2) || n > 1e6) return std::nullopt;
  return static_cast<int32_t>(std::lround(n));
}

int32_t NcclTestsTable::hosts() const {
  std::set<std::string> names;
  for (const LogDevice& d : devices) names.insert(d.host);
  return std::max<int32_t>(1, static_cast<int32_t>(names.size()));
}

std::vector<NcclTestsTable> readNcclTestsLog(std::string_view text, const std::string& source,
                                             std::optional<semantics::CollectiveType> collective) {
  return LogReader(text, source, collective).read();
}

std::optional<semantics::CollectiveType> collectiveOfBinary(std::string_view name) {
  for (const Binary& b : kBinaries)
    if (b.name == name) return b.collective;
  return std::nullopt;
}

}  // namespace ccforge::calibrate
