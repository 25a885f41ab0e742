#include "topology/process_group.hpp"

#include <boost/crc.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <set>
#include <stdexcept>

#include "base/limits.hpp"

namespace ccforge::topo {
namespace {

int32_t parseRank(std::string_view item, std::string_view whole) {
  int32_t value = 0;
  const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), value);
  if (ec != std::errc() || end != item.data() + item.size() || value < 0)
    throw std::invalid_argument(fmt::format("--ranks {}: '{}' is not a rank (a number from 0)", whole, item));
  return value;
}

}  // namespace

std::vector<int32_t> parseRankList(std::string_view text) {
  std::vector<int32_t> ranks;
  size_t begin = 0;
  while (begin <= text.size()) {
    const size_t comma = std::min(text.find(',', begin), text.size());
    const std::string_view item = text.substr(begin, comma - begin);
    const size_t dash = item.find('-');
    const int32_t first = parseRank(item.substr(0, dash), text);
    const int32_t last = dash == std::string_view::npos ? first : parseRank(item.substr(dash + 1), text);
    if (last < first) throw std::invalid_argument(fmt::format("--ranks {}: the range '{}' runs down", text, item));
    if (!ranks.empty() && first <= ranks.back())
      throw std::invalid_argument(fmt::format(
          "--ranks {}: rank {} comes after {}, list each rank once, in increasing order", text, first, ranks.back()));
    if (static_cast<int64_t>(ranks.size()) + (last - first) >= base::limits::kMaxTopologyGpus)
      throw std::invalid_argument(
          fmt::format("--ranks {}: more than {} ranks, the most a topology has (docs/limits.md)", text,
                      base::limits::kMaxTopologyGpus));
    for (int32_t r = first; r <= last; ++r) ranks.push_back(r);
    begin = comma + 1;
  }
  return ranks;
}

std::vector<int32_t> stridedRanks(int32_t start, int32_t stride, int32_t size) {
  if (size < 1 || stride < 1 || start < 0 || size > base::limits::kMaxTopologyGpus)
    throw std::invalid_argument(fmt::format(
        "--group-start {} --group-stride {} --group-size {}: the start is a rank, the stride at least 1, the size 1 "
        "to {}",
        start, stride, size, base::limits::kMaxTopologyGpus));
  std::vector<int32_t> ranks;
  for (int64_t i = 0; i < size; ++i) {
    const int64_t r = start + i * stride;
    if (r >= base::limits::kMaxTopologyGpus)
      throw std::invalid_argument(
          fmt::format("--group-stride {} --group-size {}: rank {} is past every topology", stride, size, r));
    ranks.push_back(static_cast<int32_t>(r));
  }
  return ranks;
}

std::string processGroupTag(const std::vector<int32_t>& ranks) {
  if (ranks.empty()) return "r";
  const int32_t stride = ranks.size() > 1 ? ranks[1] - ranks[0] : 1;
  bool arithmetic = true;
  for (size_t i = 1; i < ranks.size(); ++i) arithmetic = arithmetic && ranks[i] - ranks[i - 1] == stride;
  if (arithmetic) return fmt::format("r{}s{}n{}", ranks.front(), stride, ranks.size());
  boost::crc_32_type crc;
  for (int32_t r : ranks) crc.process_bytes(fmt::format("{},", r).data(), fmt::formatted_size("{},", r));
  return fmt::format("r{}-{:08x}", ranks.front(), crc.checksum());
}

Topology processGroupTopology(const Topology& machine, const std::vector<int32_t>& ranks) {
  const auto machineGpus = static_cast<int32_t>(machine.gpus().size());
  if (ranks.size() < 2)
    throw std::invalid_argument("a process group needs at least two ranks; " + std::to_string(ranks.size()) + " given");
  for (int32_t r : ranks)
    if (r >= machineGpus)
      throw std::invalid_argument(fmt::format("rank {} of the group is not a rank of {} (it has {} GPUs, 0 to {})", r,
                                              machine.name, machineGpus, machineGpus - 1));
  const size_t vertexCount = machine.vertices().size();
  std::vector<bool> kept(vertexCount, true);
  std::set<int32_t> memberBoxes;
  for (int32_t r : ranks) memberBoxes.insert(machine.vertices()[static_cast<size_t>(machine.gpus()[r])].box);
  for (size_t v = 0; v < vertexCount; ++v) {
    const Vertex& vertex = machine.vertices()[v];
    if (vertex.kind == VertexKind::Gpu) kept[v] = false;
    if (vertex.kind == VertexKind::Nic && memberBoxes.size() == 1) kept[v] = false;
  }
  for (int32_t r : ranks) kept[static_cast<size_t>(machine.gpus()[r])] = true;

  // Switches and NICs with one neighbour left are dead ends: no route between two GPUs passes them.
  auto neighbours = [&](int32_t v) {
    std::set<int32_t> out;
    for (int32_t id : machine.outLinks(v))
      if (kept[static_cast<size_t>(machine.links()[id].to)]) out.insert(machine.links()[id].to);
    for (int32_t id : machine.inLinks(v))
      if (kept[static_cast<size_t>(machine.links()[id].from)]) out.insert(machine.links()[id].from);
    return out;
  };
  std::vector<int32_t> pending;
  for (size_t v = 0; v < vertexCount; ++v) pending.push_back(static_cast<int32_t>(v));
  while (!pending.empty()) {
    const int32_t v = pending.back();
    pending.pop_back();
    if (!kept[static_cast<size_t>(v)] || machine.vertices()[static_cast<size_t>(v)].kind == VertexKind::Gpu) continue;
    const std::set<int32_t> around = neighbours(v);
    if (around.size() > 1) continue;
    kept[static_cast<size_t>(v)] = false;
    pending.insert(pending.end(), around.begin(), around.end());
  }

  Topology group;
  group.name = machine.name + "-" + processGroupTag(ranks);
  group.gpu = machine.gpu;
  group.description =
      fmt::format("{} ranks of {} ({} GPUs): {}", ranks.size(), machine.name, machineGpus, machine.description);
  group.sourceFile = machine.sourceFile;
  group.unitGBps = machine.unitGBps;
  group.gpuRelay = machine.gpuRelay;
  group.sm = machine.sm;
  group.nvls = machine.nvls;
  group.pxn = machine.pxn;
  group.gpuP2p = machine.gpuP2p;
  group.hostPath = machine.hostPath;
  group.calibration = machine.calibration;
  std::vector<int32_t> boxNumber(static_cast<size_t>(machine.boxCount()), 0);
  int32_t boxes = 0;
  for (int32_t r : ranks) {
    const int32_t box = machine.vertices()[static_cast<size_t>(machine.gpus()[r])].box;
    if (memberBoxes.erase(box) == 1) boxNumber[static_cast<size_t>(box)] = boxes++;
  }
  std::vector<int32_t> vertexId(vertexCount, -1);
  for (size_t v = 0; v < vertexCount; ++v) {
    if (!kept[v]) continue;
    Vertex vertex = machine.vertices()[v];
    vertex.box = boxNumber[static_cast<size_t>(vertex.box)];
    vertexId[v] = group.addVertex(std::move(vertex));
  }
  for (const Link& link : machine.links()) {
    const int32_t from = vertexId[static_cast<size_t>(link.from)];
    const int32_t to = vertexId[static_cast<size_t>(link.to)];
    if (from < 0 || to < 0) continue;
    Link copy = link;
    copy.from = from;
    copy.to = to;
    group.addLink(std::move(copy));
  }
  return group;
}

}  // namespace ccforge::topo
