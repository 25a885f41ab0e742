// The topology model: GPUs, switches and NICs as vertices, directed links with an exact
// bandwidth (GB/s) and a latency alpha (µs). Undirected links in a spec become two links.
// Specs and their format: docs/topologies.md.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/model.hpp"
#include "topology/calibration.hpp"
#include "topology/rational.hpp"

namespace ccforge::topo {

enum class VertexKind : uint8_t { Gpu, Switch, Nic };
std::string_view vertexKindName(VertexKind k);
std::optional<VertexKind> parseVertexKind(std::string_view name);

// What kind of wire a link is; selects NCCL's per-hop latency and per-channel bandwidth
// (msccl-ir.md §3). NVLink covers NVSwitch and xGMI as well.
enum class LinkClass : uint8_t { NVLink, PCIe, Network };
std::string_view linkClassName(LinkClass c);
std::optional<LinkClass> parseLinkClass(std::string_view name);

struct Vertex {
  std::string name;
  VertexKind kind = VertexKind::Gpu;
  int32_t box = 0;
  base::TextLocation where;  // in `Topology::sourceFile`, or where a generator was invoked
};

struct Link {
  int32_t from = 0;
  int32_t to = 0;
  Rational bandwidthGBps;  // > 0, per direction
  double alphaUs = 0;
  LinkClass linkClass = LinkClass::NVLink;
  base::TextLocation where;
};

// The GPU of a machine, for the roofline time of compute steps (docs/fused.md, "Prediction"):
// peak arithmetic throughput and memory bandwidth of one GPU (one GCD on MI250).
struct GpuSpec {
  std::string model;
  double peakTflops = 0;
  double memoryGBps = 0;
};

class Topology {
 public:
  std::string name;
  std::optional<GpuSpec> gpu;  // "gpu" in the spec; composed machines take their boxes'
  std::string description;
  std::string sourceFile;
  // Bandwidths in the spec are multiples of this; bounds count "rounds" of one chunk over one unit.
  Rational unitGBps = 1;
  // "gpu_relay" in the spec: the fabric forwards traffic between GPUs in hardware (AMD Infinity
  // Fabric), so a route may pass through other GPUs over GPU-GPU links (topology/routes.hpp).
  // A machine built from boxes relays only if its own spec says so.
  bool gpuRelay = false;
  // "sm": the GPUs' generation as NVIDIA's compute capability (70 V100, 80 A100, 90 H100/H200,
  // 100 B200); 0 when the spec does not say (AMD machines, generic graphs). NCCL's tables and the
  // simulator's per-channel caps are chosen by it (sim/model_parameters.hpp).
  int32_t sm = 0;
  // "nvls": the NVSwitch reduces and multicasts in the switch (NVLink SHARP, H100/H200 NVSwitch
  // boxes), so NCCL may run its NVLS algorithms and `bounds` has an in-switch reduction row.
  bool nvls = false;
  // "pxn": as NCCL's PXN does for connections it sets up without a ring graph (the MSCCL
  // executor's and point-to-point's), a connection to a GPU of another box leaves its box through
  // the NIC of the GPU that has the receiver's index in the sender's box, reached over the box's
  // own fabric (topology/routes.hpp; docs/topologies.md cites NCCL's source).
  bool pxn = false;
  // "p2p": false where the GPUs of a box cannot access each other's memory (GeForce cards, P2P
  // disabled): NCCL then moves data between them through host memory (its SHM transport).
  bool gpuP2p = true;
  // "host_path": GPUs of one box that the fabric does not join reach each other through host
  // memory over their PCIe links (NCCL's SHM transport, as on a DGX-1 between GPUs without an
  // NVLink): per GPU, `bandwidthGBps` each way; only the simulator routes over it
  // (topology/routes.hpp `simulatorRoute`), bounds and synthesis leave it out.
  struct HostPath {
    Rational bandwidthGBps;
    double alphaUs = 0;
  };
  std::optional<HostPath> hostPath;
  // "calibration": what `ccforge calibrate` fitted to this machine's nccl-tests logs.
  std::optional<Calibration> calibration;

  const std::vector<Vertex>& vertices() const { return vertices_; }
  const std::vector<Link>& links() const { return links_; }
  // Vertex ids of the GPUs, in rank order (the order they were declared).
  const std::vector<int32_t>& gpus() const { return gpus_; }
  // Rank of a vertex, or -1 for a switch or NIC.
  int32_t rankOf(int32_t vertex) const { return rank_[static_cast<size_t>(vertex)]; }
  const std::vector<int32_t>& outLinks(int32_t vertex) const { return out_[static_cast<size_t>(vertex)]; }
  const std::vector<int32_t>& inLinks(int32_t vertex) const { return in_[static_cast<size_t>(vertex)]; }
  std::optional<int32_t> findVertex(std::string_view vertexName) const;
  // The link from -> to, if any (at most one per ordered pair).
  std::optional<int32_t> findLink(int32_t from, int32_t to) const;
  int32_t boxCount() const;
  int32_t boxOfRank(int32_t rank) const { return vertices_[static_cast<size_t>(gpus_[static_cast<size_t>(rank)])].box; }
  bool isCompute(int32_t vertex) const { return rankOf(vertex) >= 0; }

  // Building. Both throw std::invalid_argument with a user-facing message on a duplicate
  // vertex name, an unknown endpoint, a self loop, a second link on the same ordered pair
  // or a non-positive bandwidth; callers turn that into a located InputError.
  int32_t addVertex(Vertex v);
  int32_t addLink(Link l);

 private:
  std::vector<Vertex> vertices_;
  std::vector<Link> links_;
  std::vector<int32_t> gpus_;
  std::vector<int32_t> rank_;
  std::vector<std::vector<int32_t>> out_;
  std::vector<std::vector<int32_t>> in_;
  std::map<std::string, int32_t, std::less<>> byName_;
};

}  // namespace ccforge::topo
