// Reads `nvidia-smi topo -m`: the connection matrix (GPU<i>/NIC<j> rows and columns; cells X,
// NV<n>, PIX, PXB, PHB, NODE, SYS, SOC) and the NIC legend ("NIC0: mlx5_0"). CPU and NUMA
// affinity columns are skipped. The matrix carries no compute capability, PCIe or NIC speed.
#include <charconv>
#include <map>

#include "base/input_error.hpp"
#include "topology/machine_import.hpp"

namespace ccforge::topo {
namespace {

struct SmiToken {
  std::string_view text;
  uint32_t column = 0;  // 1-based
};

std::vector<SmiToken> smiTokens(std::string_view line) {
  std::vector<SmiToken> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') ++i;
    if (i > start) out.push_back({line.substr(start, i - start), static_cast<uint32_t>(start + 1)});
  }
  return out;
}

std::optional<int32_t> smiIndex(std::string_view token, std::string_view prefix) {
  if (token.size() <= prefix.size() || token.substr(0, prefix.size()) != prefix) return std::nullopt;
  int32_t value = 0;
  auto [ptr, ec] = std::from_chars(token.data() + prefix.size(), token.data() + token.size(), value);
  if (ec != std::errc() || ptr != token.data() + token.size()) return std::nullopt;
  return value;
}

bool pcieCell(std::string_view cell) {
  return cell == "PIX" || cell == "PXB" || cell == "PHB" || cell == "NODE" || cell == "SYS" || cell == "SOC" ||
         cell == "X";
}

}  // namespace

ImportedBox readNvidiaSmiTopology(std::string_view text, const std::string& sourceName) {
  ImportedBox box;
  box.source = sourceName;
  box.pairCountsFromMatrix = true;
  std::vector<std::string_view> lines;
  for (size_t pos = 0; pos <= text.size();) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    lines.push_back(text.substr(pos, end - pos));
    pos = end + 1;
  }
  // Header: the first line whose first token is GPU0.
  size_t header = lines.size();
  for (size_t i = 0; i < lines.size(); ++i) {
    auto t = smiTokens(lines[i]);
    if (!t.empty() && t[0].text == "GPU0") {
      header = i;
      break;
    }
  }
  if (header == lines.size())
    throw base::InputError(sourceName, base::TextLocation{1, 1},
                           "not `nvidia-smi topo -m` output: no header line starting with GPU0");
  std::vector<std::string> columns;  // "GPU<i>" or "NIC<j>", in order
  int32_t gpus = 0, nicColumns = 0;
  for (const SmiToken& t : smiTokens(lines[header])) {
    auto gpu = smiIndex(t.text, "GPU"), nic = smiIndex(t.text, "NIC");
    if (!gpu && !nic) {
      if (t.text != "CPU")  // older nvidia-smi names NIC columns by device (mlx5_0): not read
        box.notes.push_back(sourceName + ": matrix columns from '" + std::string(t.text) + "' on are not read");
      break;
    }
    // nvidia-smi numbers its columns GPU0, GPU1, ..., then NIC0, NIC1, ...
    if ((gpu && (*gpu != gpus || nicColumns > 0)) || (nic && *nic != nicColumns))
      throw base::InputError(
          sourceName, base::TextLocation{static_cast<uint32_t>(header + 1), t.column},
          "column '" + std::string(t.text) + "' out of order (expected " +
              (gpu && nicColumns == 0 ? "GPU" + std::to_string(gpus) : "NIC" + std::to_string(nicColumns)) + ")");
    (gpu ? gpus : nicColumns) += 1;
    columns.emplace_back(t.text);
  }
  for (int32_t g = 0; g < gpus; ++g) {
    ImportedGpu gpu;
    gpu.dev = gpu.rank = g;
    gpu.busId = "GPU" + std::to_string(g);
    gpu.where = {static_cast<uint32_t>(header + 1), 1};
    box.gpus.push_back(gpu);
  }
  std::map<int32_t, ImportedNic> nics;
  for (const std::string& c : columns)
    if (auto j = smiIndex(c, "NIC")) {
      ImportedNic n;
      n.dev = *j;
      n.name = c;
      n.parent = "?";  // attached below from PIX cells
      nics.emplace(*j, n);
    }

  int32_t rowsSeen = 0;
  size_t i = header + 1;
  for (; i < lines.size(); ++i) {
    auto t = smiTokens(lines[i]);
    if (t.empty()) break;
    auto row = smiIndex(t[0].text, "GPU");
    if (!row) {
      if (smiIndex(t[0].text, "NIC")) continue;  // NIC rows repeat the GPU columns
      break;
    }
    base::TextLocation rowAt{static_cast<uint32_t>(i + 1), t[0].column};
    if (*row != rowsSeen || *row >= gpus)
      throw base::InputError(sourceName, rowAt,
                             *row >= gpus ? "row GPU" + std::to_string(*row) + " has no column in the header"
                                          : "expected row GPU" + std::to_string(rowsSeen));
    if (t.size() < columns.size() + 1)
      throw base::InputError(sourceName, rowAt,
                             "row GPU" + std::to_string(*row) + " has " + std::to_string(t.size() - 1) +
                                 " cells; the header has " + std::to_string(columns.size()) + " columns");
    for (size_t c = 0; c < columns.size(); ++c) {
      const SmiToken& cell = t[c + 1];
      base::TextLocation at{static_cast<uint32_t>(i + 1), cell.column};
      if (auto n = smiIndex(cell.text, "NV")) {
        auto peer = smiIndex(columns[c], "GPU");
        if (!peer || *n <= 0)
          throw base::InputError(sourceName, at,
                                 "'" + std::string(cell.text) + "' where a GPU-GPU NVLink count belongs");
        ImportedNvlink l;
        l.gpu = *row;
        l.target = columns[c];
        l.targetGpu = *peer;
        l.count = *n;
        l.where = at;
        box.nvlinks.push_back(l);
      } else if (!pcieCell(cell.text)) {
        throw base::InputError(
            sourceName, at,
            "unknown cell '" + std::string(cell.text) + "' (expected X, NV<n>, PIX, PXB, PHB, NODE or SYS)");
      } else if (cell.text == "PIX") {
        if (auto j = smiIndex(columns[c], "NIC")) {
          ImportedNic& nic = nics[*j];
          if (nic.parent == "?") nic.parent = "GPU" + std::to_string(*row);
        }
      }
    }
    ++rowsSeen;
  }
  if (rowsSeen < gpus)
    throw base::InputError(
        sourceName, base::TextLocation{static_cast<uint32_t>(std::min(i, lines.size() - 1) + 1), 1},
        "the matrix ends after " + std::to_string(rowsSeen) + " of " + std::to_string(gpus) + " GPU rows (truncated?)");
  // NIC legend: "  NIC0: mlx5_0".
  for (; i < lines.size(); ++i) {
    auto t = smiTokens(lines[i]);
    if (t.size() >= 2 && t[0].text.size() > 1 && t[0].text.back() == ':')
      if (auto j = smiIndex(t[0].text.substr(0, t[0].text.size() - 1), "NIC"))
        if (auto it = nics.find(*j); it != nics.end()) it->second.name = std::string(t[1].text);
  }
  for (auto& [j, n] : nics) box.nics.push_back(n);
  box.notes.push_back(sourceName + ": nvidia-smi gives no PCIe or NIC speeds and no compute capability");
  return box;
}

}  // namespace ccforge::topo
