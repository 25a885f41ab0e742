#include "topology/topology.hpp"

#include <algorithm>
#include <stdexcept>

#include "base/limits.hpp"

namespace ccforge::topo {

std::string_view vertexKindName(VertexKind k) {
  switch (k) {
    case VertexKind::Gpu: return "gpu";
    case VertexKind::Switch: return "switch";
    case VertexKind::Nic: return "nic";
  }
  return "?";
}

std::optional<VertexKind> parseVertexKind(std::string_view name) {
  for (VertexKind k : {VertexKind::Gpu, VertexKind::Switch, VertexKind::Nic})
    if (vertexKindName(k) == name) return k;
  return std::nullopt;
}

std::string_view linkClassName(LinkClass c) {
  switch (c) {
    case LinkClass::NVLink: return "nvlink";
    case LinkClass::PCIe: return "pcie";
    case LinkClass::Network: return "network";
  }
  return "?";
}

std::optional<LinkClass> parseLinkClass(std::string_view name) {
  for (LinkClass c : {LinkClass::NVLink, LinkClass::PCIe, LinkClass::Network})
    if (linkClassName(c) == name) return c;
  return std::nullopt;
}

std::optional<int32_t> Topology::findVertex(std::string_view vertexName) const {
  auto it = byName_.find(vertexName);
  if (it == byName_.end()) return std::nullopt;
  return it->second;
}

std::optional<int32_t> Topology::findLink(int32_t from, int32_t to) const {
  for (int32_t id : outLinks(from))
    if (links_[static_cast<size_t>(id)].to == to) return id;
  return std::nullopt;
}

int32_t Topology::boxCount() const {
  int32_t most = -1;
  for (const Vertex& v : vertices_) most = std::max(most, v.box);
  return most + 1;
}

int32_t Topology::addVertex(Vertex v) {
  if (v.name.empty()) throw std::invalid_argument("a vertex needs a non-empty name");
  if (findVertex(v.name)) throw std::invalid_argument("vertex '" + v.name + "' is declared twice");
  if (v.box < 0) throw std::invalid_argument("vertex '" + v.name + "': box must be >= 0");
  if (vertices_.size() >= static_cast<size_t>(base::limits::kMaxTopologyVertices))
    throw base::LimitExceeded("the topology has more than " + std::to_string(base::limits::kMaxTopologyVertices) +
                              " vertices (GPUs, switches and NICs), ccforge's limit (docs/limits.md)");
  if (v.kind == VertexKind::Gpu && gpus_.size() >= static_cast<size_t>(base::limits::kMaxTopologyGpus))
    throw base::LimitExceeded("the topology has more than " + std::to_string(base::limits::kMaxTopologyGpus) +
                              " GPUs, ccforge's limit (docs/limits.md)");
  auto id = static_cast<int32_t>(vertices_.size());
  rank_.push_back(v.kind == VertexKind::Gpu ? static_cast<int32_t>(gpus_.size()) : -1);
  if (v.kind == VertexKind::Gpu) gpus_.push_back(id);
  byName_.emplace(v.name, id);
  vertices_.push_back(std::move(v));
  out_.emplace_back();
  in_.emplace_back();
  return id;
}

int32_t Topology::addLink(Link l) {
  auto n = static_cast<int32_t>(vertices_.size());
  if (l.from < 0 || l.from >= n || l.to < 0 || l.to >= n) throw std::invalid_argument("link endpoint out of range");
  const std::string& a = vertices_[static_cast<size_t>(l.from)].name;
  const std::string& b = vertices_[static_cast<size_t>(l.to)].name;
  if (l.from == l.to) throw std::invalid_argument("link from '" + a + "' to itself");
  if (links_.size() >= static_cast<size_t>(base::limits::kMaxTopologyLinks))
    throw base::LimitExceeded("the topology has more than " + std::to_string(base::limits::kMaxTopologyLinks) +
                              " directed links, ccforge's limit (docs/limits.md)");
  if (l.bandwidthGBps <= 0)
    throw std::invalid_argument("link " + a + " -> " + b + ": bandwidth must be positive, got " +
                                toString(l.bandwidthGBps));
  if (!(l.alphaUs >= 0)) throw std::invalid_argument("link " + a + " -> " + b + ": alpha must be >= 0");
  if (auto existing = findLink(l.from, l.to)) {
    std::string message = "a second link " + a + " -> " + b;
    base::TextLocation first = links_[static_cast<size_t>(*existing)].where;
    if (first.known()) message += " (the first is at line " + std::to_string(first.line) + ")";
    throw std::invalid_argument(message + "; give one link the combined bandwidth");
  }
  auto id = static_cast<int32_t>(links_.size());
  out_[static_cast<size_t>(l.from)].push_back(id);
  in_[static_cast<size_t>(l.to)].push_back(id);
  links_.push_back(std::move(l));
  return id;
}

}  // namespace ccforge::topo
