#include "topology/families.hpp"

#include <stdexcept>
#include <string>

namespace ccforge::topo {
namespace {

std::string gpuName(int64_t i) { return "gpu" + std::to_string(i); }

class FamilyBuilder {
 public:
  FamilyBuilder(Topology& topology, const FamilySpec& spec) : t_(topology), spec_(spec) {}

  int32_t gpu(int64_t i) const { return first_ + static_cast<int32_t>(i); }

  void addGpus(int64_t n) {
    first_ = static_cast<int32_t>(t_.vertices().size());
    for (int64_t i = 0; i < n; ++i) t_.addVertex({gpuName(i), VertexKind::Gpu, 0, spec_.where});
  }

  // One link, or a pair when undirected; a pair that already exists (a torus dimension of
  // extent 2 reaches the same neighbour both ways) is not added twice.
  void connect(int32_t a, int32_t b, bool bothWays) {
    if (a == b || t_.findLink(a, b)) return;
    t_.addLink({a, b, spec_.bandwidthGBps, spec_.alphaUs, spec_.linkClass, spec_.where});
    if (bothWays) t_.addLink({b, a, spec_.bandwidthGBps, spec_.alphaUs, spec_.linkClass, spec_.where});
  }

 private:
  Topology& t_;
  const FamilySpec& spec_;
  int32_t first_ = 0;
};

int64_t gpuCount(const FamilySpec& spec) {
  std::string_view name = familyName(spec.family);
  if (spec.family == Family::Mesh || spec.family == Family::Torus) {
    if (spec.shape.empty() || spec.shape.size() > 3)
      throw std::invalid_argument(std::string(name) + ": give 1 to 3 dimensions");
    int64_t n = 1;
    for (int32_t d : spec.shape) {
      if (d < 1) throw std::invalid_argument(std::string(name) + ": every dimension must be >= 1");
      n *= d;
      if (n > kMaxFamilyGpus) break;
    }
    return n;
  }
  if (spec.shape.size() != 1) throw std::invalid_argument(std::string(name) + ": expected one size parameter");
  if (spec.family == Family::Hypercube) {
    int32_t d = spec.shape[0];
    if (d < 0 || d > 12) throw std::invalid_argument("hypercube: dimension must be 0 to 12");
    return int64_t{1} << d;
  }
  if (spec.shape[0] < 1) throw std::invalid_argument(std::string(name) + ": n must be >= 1");
  return spec.shape[0];
}

}  // namespace

std::string_view familyName(Family f) {
  switch (f) {
    case Family::Ring: return "ring";
    case Family::Line: return "line";
    case Family::Star: return "star";
    case Family::FullyConnected: return "fully_connected";
    case Family::Switch: return "switch";
    case Family::Mesh: return "mesh";
    case Family::Torus: return "torus";
    case Family::Hypercube: return "hypercube";
  }
  return "?";
}

std::optional<Family> parseFamily(std::string_view name) {
  for (Family f : {Family::Ring, Family::Line, Family::Star, Family::FullyConnected, Family::Switch, Family::Mesh,
                   Family::Torus, Family::Hypercube})
    if (familyName(f) == name) return f;
  return std::nullopt;
}

void addFamily(Topology& topology, const FamilySpec& spec) {
  if (spec.directed && spec.family != Family::Ring && spec.family != Family::Torus)
    throw std::invalid_argument("'directed' applies to ring and torus only");
  int64_t n = gpuCount(spec);
  if (n > kMaxFamilyGpus) throw std::invalid_argument("at most " + std::to_string(kMaxFamilyGpus) + " GPUs per family");
  if (spec.family == Family::FullyConnected && n > kMaxFullyConnectedGpus)
    throw std::invalid_argument("fully_connected: at most " + std::to_string(kMaxFullyConnectedGpus) + " GPUs");

  FamilyBuilder b(topology, spec);
  b.addGpus(n);
  bool both = !spec.directed;
  switch (spec.family) {
    case Family::Ring:
      for (int64_t i = 0; i < n; ++i) b.connect(b.gpu(i), b.gpu((i + 1) % n), both);
      break;
    case Family::Line:
      for (int64_t i = 0; i + 1 < n; ++i) b.connect(b.gpu(i), b.gpu(i + 1), true);
      break;
    case Family::Star:
      for (int64_t i = 1; i < n; ++i) b.connect(b.gpu(0), b.gpu(i), true);
      break;
    case Family::FullyConnected:
      for (int64_t i = 0; i < n; ++i)
        for (int64_t j = i + 1; j < n; ++j) b.connect(b.gpu(i), b.gpu(j), true);
      break;
    case Family::Switch: {
      int32_t hub = topology.addVertex({"sw", VertexKind::Switch, 0, spec.where});
      for (int64_t i = 0; i < n; ++i) b.connect(b.gpu(i), hub, true);
      break;
    }
    case Family::Mesh:
    case Family::Torus: {
      bool wrap = spec.family == Family::Torus;
      int64_t stride = 1;
      for (size_t d = spec.shape.size(); d-- > 0;) {
        int64_t extent = spec.shape[d];
        for (int64_t i = 0; i < n; ++i) {
          int64_t coordinate = (i / stride) % extent;
          if (coordinate + 1 < extent)
            b.connect(b.gpu(i), b.gpu(i + stride), both);
          else if (wrap && extent > 1)
            b.connect(b.gpu(i), b.gpu(i - coordinate * stride), both);
        }
        stride *= extent;
      }
      break;
    }
    case Family::Hypercube:
      for (int64_t i = 0; i < n; ++i)
        for (int64_t bit = 1; bit < n; bit <<= 1)
          if ((i & bit) == 0) b.connect(b.gpu(i), b.gpu(i | bit), true);
      break;
  }
}

Topology familyTopology(Family f, std::vector<int32_t> shape, bool directed) {
  Topology t;
  FamilySpec spec;
  spec.family = f;
  spec.shape = std::move(shape);
  spec.directed = directed;
  addFamily(t, spec);
  return t;
}

}  // namespace ccforge::topo
