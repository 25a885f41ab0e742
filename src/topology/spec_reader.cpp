#include "topology/spec_reader.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <initializer_list>
#include <memory>
#include <stdexcept>

#include "base/input_error.hpp"
#include "base/text_position.hpp"
#include "base/load_file.hpp"
#include "topology/boxes.hpp"
#include "topology/catalog.hpp"
#include "topology/families.hpp"
#include "base/json_locations.hpp"

namespace ccforge::topo {

using base::JsonLocations;
namespace {

using nlohmann::json;

constexpr int kMaxBoxNesting = base::limits::kMaxBoxNesting;

bool validName(std::string_view name) {
  if (name.empty() || name.size() > 128) return false;
  for (char c : name) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
              c == ':' || c == '+' || c == '-';
    if (!ok) return false;
  }
  return true;
}

std::string joinKeys(std::initializer_list<std::string_view> keys) {
  std::string out;
  for (std::string_view k : keys) {
    if (!out.empty()) out += ", ";
    out += k;
  }
  return out;
}

Topology loadReference(std::string_view nameOrPath, const std::filesystem::path& baseDir, int nesting);

// Defaults a spec gives to the links it declares (its own links and its family's).
struct LinkDefaults {
  double alphaUs = 0;
  LinkClass linkClass = LinkClass::NVLink;
};

class SpecReader {
 public:
  SpecReader(std::string_view text, std::string source, std::filesystem::path baseDir, int nesting)
      : text_(text), source_(std::move(source)), baseDir_(std::move(baseDir)), nesting_(nesting) {}

  Topology read() {
    base::LocatedJson parsed = base::parseLocatedJson(text_, source_);
    json root = std::move(parsed.root);
    locations_ = std::move(parsed.locations);
    return readSpec(root, "");
  }

 private:
  [[noreturn]] void fail(std::string_view pointer, const std::string& message) const {
    base::TextLocation where = locations_ ? locations_->at(pointer) : base::TextLocation{};
    throw base::InputError(source_, where, pointer.empty() ? message : std::string(pointer) + ": " + message);
  }
  base::TextLocation where(std::string_view pointer) const { return locations_->at(pointer); }

  void checkKeys(const json& object, const std::string& ptr, std::initializer_list<std::string_view> allowed) const {
    if (!object.is_object()) fail(ptr, "expected an object");
    for (const auto& item : object.items()) {
      bool known = false;
      for (std::string_view k : allowed) known = known || item.key() == k;
      if (!known)
        fail(base::JsonLocations::child(ptr, item.key()),
             "unknown key '" + item.key() + "'; expected one of: " + joinKeys(allowed));
    }
  }

  static const json* member(const json& object, std::string_view key) {
    auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
  }

  std::string text(const json& v, const std::string& ptr) const {
    if (!v.is_string()) fail(ptr, "expected a string");
    return v.get<std::string>();
  }

  int32_t integer(const json& v, const std::string& ptr, int64_t lo, int64_t hi) const {
    if (!v.is_number_integer()) fail(ptr, "expected an integer");
    bool huge = v.is_number_unsigned() && v.get<uint64_t>() > static_cast<uint64_t>(hi);
    if (huge || v.get<int64_t>() < lo || v.get<int64_t>() > hi)
      fail(ptr, "must be " + std::to_string(lo) + " to " + std::to_string(hi));
    return static_cast<int32_t>(v.get<int64_t>());
  }

  bool boolean(const json& v, const std::string& ptr) const {
    if (!v.is_boolean()) fail(ptr, "expected true or false");
    return v.get<bool>();
  }

  // An exact positive bandwidth: an integer, an exact decimal (12.5) or a "p/q" string.
  Rational positive(const json& v, const std::string& ptr) const {
    std::optional<Rational> value;
    if (v.is_string()) {
      value = parseRational(v.get<std::string>());
    } else if (v.is_number()) {
      auto raw = locations_->rawScalar(ptr);
      if (raw && raw->find_first_of("eE") != std::string_view::npos)
        fail(ptr, "write the bandwidth without an exponent (an integer, a decimal or \"p/q\")");
      if (raw) value = parseRational(*raw);
    } else {
      fail(ptr, "expected a bandwidth: an integer, a decimal or a \"p/q\" string");
    }
    if (!value) fail(ptr, "not an exact number: use an integer, a decimal or \"p/q\"");
    if (*value <= 0) fail(ptr, "bandwidth must be positive, got " + toString(*value));
    return *value;
  }

  double latency(const json& v, const std::string& ptr) const {
    if (!v.is_number()) fail(ptr, "expected a latency in microseconds");
    double us = v.get<double>();
    if (!std::isfinite(us) || us < 0) fail(ptr, "latency must be a finite number >= 0");
    return us;
  }

  LinkClass linkClass(const json& v, const std::string& ptr) const {
    auto c = parseLinkClass(text(v, ptr));
    if (!c) fail(ptr, "link class must be nvlink, pcie or network");
    return *c;
  }

  // Runs a Topology-building call and turns its complaints into errors located at `ptr`.
  template <typename F>
  void build(const std::string& ptr, F&& f) const {
    try {
      f();
    } catch (const std::invalid_argument& e) {
      fail(ptr, e.what());
    }
  }

  Topology readSpec(const json& spec, const std::string& ptr) {
    checkKeys(spec, ptr,
              {"name", "description", "notes", "unit_GBps", "alpha_us", "link_class", "gpu_relay", "sm", "nvls", "pxn",
               "p2p", "host_path", "family", "boxes", "vertices", "links", "gpu", "calibration"});
    Topology t;
    t.sourceFile = source_;
    const json* name = member(spec, "name");
    if (name == nullptr) fail(ptr, "missing key 'name'");
    t.name = text(*name, base::JsonLocations::child(ptr, "name"));
    if (!validName(t.name))
      fail(base::JsonLocations::child(ptr, "name"), "a name uses letters, digits and _ . : + - only");
    if (const json* d = member(spec, "description"))
      t.description = text(*d, base::JsonLocations::child(ptr, "description"));
    if (const json* n = member(spec, "notes")) {
      // Free-text assumptions (written by `topo import`); checked for shape, otherwise ignored.
      const std::string notesPtr = base::JsonLocations::child(ptr, "notes");
      if (!n->is_array()) fail(notesPtr, "notes must be an array of strings");
      for (size_t i = 0; i < n->size(); ++i) text((*n)[i], base::JsonLocations::child(notesPtr, i));
    }
    if (const json* u = member(spec, "unit_GBps"))
      t.unitGBps = positive(*u, base::JsonLocations::child(ptr, "unit_GBps"));
    if (const json* r = member(spec, "gpu_relay"))
      t.gpuRelay = boolean(*r, base::JsonLocations::child(ptr, "gpu_relay"));
    if (const json* sm = member(spec, "sm")) t.sm = integer(*sm, base::JsonLocations::child(ptr, "sm"), 10, 999);
    if (const json* n = member(spec, "nvls")) t.nvls = boolean(*n, base::JsonLocations::child(ptr, "nvls"));
    if (const json* x = member(spec, "pxn")) t.pxn = boolean(*x, base::JsonLocations::child(ptr, "pxn"));
    if (const json* x = member(spec, "p2p")) t.gpuP2p = boolean(*x, base::JsonLocations::child(ptr, "p2p"));
    if (const json* h = member(spec, "host_path")) {
      const std::string hp = base::JsonLocations::child(ptr, "host_path");
      checkKeys(*h, hp, {"bw", "alpha_us"});
      const json* bw = member(*h, "bw");
      if (bw == nullptr) fail(hp, "missing key 'bw'");
      Topology::HostPath path;
      path.bandwidthGBps = positive(*bw, hp + "/bw") * t.unitGBps;
      if (const json* a = member(*h, "alpha_us")) path.alphaUs = latency(*a, hp + "/alpha_us");
      t.hostPath = path;
    }
    LinkDefaults defaults;
    if (const json* a = member(spec, "alpha_us"))
      defaults.alphaUs = latency(*a, base::JsonLocations::child(ptr, "alpha_us"));
    if (const json* c = member(spec, "link_class"))
      defaults.linkClass = linkClass(*c, base::JsonLocations::child(ptr, "link_class"));

    if (const json* g = member(spec, "gpu")) {
      const std::string gp = base::JsonLocations::child(ptr, "gpu");
      checkKeys(*g, gp, {"model", "peak_tflops", "memory_GBps"});
      GpuSpec gpu;
      if (const json* m = member(*g, "model")) gpu.model = text(*m, gp + "/model");
      const json* peak = member(*g, "peak_tflops");
      const json* bw = member(*g, "memory_GBps");
      if (peak == nullptr || bw == nullptr) fail(gp, "a gpu needs peak_tflops and memory_GBps");
      gpu.peakTflops = toDouble(positive(*peak, gp + "/peak_tflops"));
      gpu.memoryGBps = toDouble(positive(*bw, gp + "/memory_GBps"));
      t.gpu = gpu;
    }
    if (const json* c = member(spec, "calibration"))
      t.calibration = readCalibration(*c, base::JsonLocations::child(ptr, "calibration"));
    if (const json* f = member(spec, "family")) readFamily(t, *f, base::JsonLocations::child(ptr, "family"), defaults);
    if (const json* b = member(spec, "boxes")) readBoxes(t, spec, *b, base::JsonLocations::child(ptr, "boxes"));
    if (const json* v = member(spec, "vertices")) readVertices(t, *v, base::JsonLocations::child(ptr, "vertices"));
    if (const json* l = member(spec, "links")) readLinks(t, *l, base::JsonLocations::child(ptr, "links"), defaults);
    if (t.gpus().empty()) fail(ptr, "the topology has no GPU");
    return t;
  }

  Calibration readCalibration(const json& c, const std::string& ptr) const {
    if (!c.is_object()) fail(ptr, "expected an object");
    Calibration out;
    for (const auto& item : c.items()) {
      const std::string p = base::JsonLocations::child(ptr, item.key());
      if (item.key() == "logs") {
        if (!item.value().is_array()) fail(p, "logs must be an array of strings");
        for (size_t i = 0; i < item.value().size(); ++i)
          out.logs.push_back(text(item.value()[i], base::JsonLocations::child(p, i)));
        continue;
      }
      const CalibrationField* field = nullptr;
      for (const CalibrationField& f : calibrationFields()) field = f.key == item.key() ? &f : field;
      if (field == nullptr) {
        std::string keys = "logs";
        for (const CalibrationField& f : calibrationFields()) keys += ", " + std::string(f.key);
        fail(p, "unknown key '" + item.key() + "'; expected one of: " + keys);
      }
      if (!item.value().is_number()) fail(p, "expected a number");
      const double v = item.value().get<double>();
      if (!std::isfinite(v) || v < field->min || v > field->max)
        fail(p, std::string(field->key) + " must be " + fmt::format("{:g} to {:g}", field->min, field->max) + " (" +
                    std::string(field->meaning) + ")");
      out.*(field->member) = v;
    }
    return out;
  }

  void readFamily(Topology& t, const json& f, const std::string& ptr, const LinkDefaults& defaults) {
    checkKeys(f, ptr, {"kind", "n", "dims", "dimension", "bw", "alpha_us", "link_class", "directed"});
    FamilySpec spec;
    spec.where = where(ptr);
    spec.alphaUs = defaults.alphaUs;
    spec.linkClass = defaults.linkClass;
    const json* kind = member(f, "kind");
    if (kind == nullptr) fail(ptr, "missing key 'kind'");
    auto family = parseFamily(text(*kind, ptr + "/kind"));
    if (!family)
      fail(ptr + "/kind",
           "unknown family; expected ring, line, star, fully_connected, switch, mesh, torus or hypercube");
    spec.family = *family;
    std::string_view shapeKey = spec.family == Family::Mesh || spec.family == Family::Torus ? "dims"
                                : spec.family == Family::Hypercube                          ? "dimension"
                                                                                            : "n";
    for (std::string_view k : {"n", "dims", "dimension"})
      if (k != shapeKey && member(f, k) != nullptr)
        fail(base::JsonLocations::child(ptr, k), "not a parameter of " + std::string(familyName(spec.family)) +
                                                     "; it takes '" + std::string(shapeKey) + "'");
    const json* shape = member(f, shapeKey);
    if (shape == nullptr) fail(ptr, "missing key '" + std::string(shapeKey) + "'");
    std::string shapePtr = base::JsonLocations::child(ptr, shapeKey);
    if (shapeKey == "dims") {
      if (!shape->is_array()) fail(shapePtr, "expected an array of 1 to 3 extents");
      for (size_t i = 0; i < shape->size(); ++i)
        spec.shape.push_back(integer((*shape)[i], base::JsonLocations::child(shapePtr, i), 1, kMaxFamilyGpus));
    } else {
      spec.shape.push_back(integer(*shape, shapePtr, 0, kMaxFamilyGpus));
    }
    const json* bw = member(f, "bw");
    if (bw == nullptr) fail(ptr, "missing key 'bw'");
    spec.bandwidthGBps = positive(*bw, ptr + "/bw") * t.unitGBps;
    if (const json* a = member(f, "alpha_us")) spec.alphaUs = latency(*a, ptr + "/alpha_us");
    if (const json* c = member(f, "link_class")) spec.linkClass = linkClass(*c, ptr + "/link_class");
    if (const json* d = member(f, "directed")) spec.directed = boolean(*d, ptr + "/directed");
    build(ptr, [&] { addFamily(t, spec); });
  }

  // `outer` is the spec that holds `boxes`: the GPU facts it does not state itself come from the box.
  void readBoxes(Topology& t, const json& outer, const json& b, const std::string& ptr) {
    checkKeys(b, ptr, {"count", "box", "nics", "network"});
    BoxesSpec spec;
    spec.where = where(ptr);
    const json* count = member(b, "count");
    if (count == nullptr) fail(ptr, "missing key 'count'");
    spec.count = integer(*count, ptr + "/count", 1, kMaxBoxes);
    const json* box = member(b, "box");
    if (box == nullptr) fail(ptr, "missing key 'box' (a catalog name, a path or an inline spec)");
    Topology inner;
    if (box->is_string()) {
      if (nesting_ >= kMaxBoxNesting)
        fail(ptr + "/box", "boxes nest deeper than " + std::to_string(kMaxBoxNesting) + " levels");
      try {
        inner = loadReference(box->get<std::string>(), baseDir_, nesting_ + 1);
      } catch (const base::InputError& e) {
        if (e.file() != box->get<std::string>()) throw;
        fail(ptr + "/box", e.message());
      }
    } else if (box->is_object()) {
      inner = readSpec(*box, ptr + "/box");
    } else {
      fail(ptr + "/box", "expected a catalog name, a path or an inline spec object");
    }
    if (!t.gpu) t.gpu = inner.gpu;
    if (member(outer, "sm") == nullptr) t.sm = inner.sm;
    if (member(outer, "nvls") == nullptr) t.nvls = inner.nvls;
    if (member(outer, "p2p") == nullptr) t.gpuP2p = inner.gpuP2p;
    if (member(outer, "host_path") == nullptr) t.hostPath = inner.hostPath;
    if (const json* n = member(b, "nics")) {
      std::string p = ptr + "/nics";
      checkKeys(*n, p, {"bw", "alpha_us", "link_class", "gpus_per_nic"});
      NicSpec nic;
      const json* bw = member(*n, "bw");
      if (bw == nullptr) fail(p, "missing key 'bw'");
      nic.bandwidthGBps = positive(*bw, p + "/bw") * t.unitGBps;
      if (const json* a = member(*n, "alpha_us")) nic.alphaUs = latency(*a, p + "/alpha_us");
      if (const json* c = member(*n, "link_class")) nic.linkClass = linkClass(*c, p + "/link_class");
      if (const json* g = member(*n, "gpus_per_nic"))
        nic.gpusPerNic = integer(*g, p + "/gpus_per_nic", 1, kMaxFamilyGpus);
      spec.nics = nic;
    }
    if (const json* n = member(b, "network")) {
      std::string p = ptr + "/network";
      checkKeys(*n, p,
                {"kind", "switches", "boxes_per_leaf", "bw", "alpha_us", "link_class", "spine_oversubscription",
                 "spine_alpha_us"});
      NetworkSpec net;
      const json* kind = member(*n, "kind");
      if (kind == nullptr) fail(p, "missing key 'kind' (switch, rails or clos)");
      std::string k = text(*kind, p + "/kind");
      if (k == "switch")
        net.kind = NetworkKind::Switch;
      else if (k == "rails")
        net.kind = NetworkKind::Rails;
      else if (k == "clos")
        net.kind = NetworkKind::Clos;
      else
        fail(p + "/kind", "network kind must be switch, rails or clos");
      if (const json* s = member(*n, "switches")) {
        if (net.kind != NetworkKind::Rails) fail(p + "/switches", "only rails take a switch count");
        net.switches = integer(*s, p + "/switches", 1, kMaxFamilyGpus);
      } else if (net.kind == NetworkKind::Rails) {
        fail(p, "missing key 'switches'");
      }
      if (const json* l = member(*n, "boxes_per_leaf")) {
        if (net.kind != NetworkKind::Clos) fail(p + "/boxes_per_leaf", "only clos takes boxes_per_leaf");
        net.boxesPerLeaf = integer(*l, p + "/boxes_per_leaf", 1, kMaxBoxes);
      }
      if (const json* o = member(*n, "spine_oversubscription")) {
        if (net.kind == NetworkKind::Switch) fail(p + "/spine_oversubscription", "one switch has no spine");
        net.spineOversubscription = positive(*o, p + "/spine_oversubscription");
      }
      if (const json* a = member(*n, "spine_alpha_us")) {
        if (!net.spineOversubscription) fail(p + "/spine_alpha_us", "give spine_oversubscription for a spine");
        net.spineAlphaUs = latency(*a, p + "/spine_alpha_us");
      }
      const json* bw = member(*n, "bw");
      if (bw == nullptr) fail(p, "missing key 'bw'");
      net.bandwidthGBps = positive(*bw, p + "/bw") * t.unitGBps;
      if (const json* a = member(*n, "alpha_us")) net.alphaUs = latency(*a, p + "/alpha_us");
      if (const json* c = member(*n, "link_class")) net.linkClass = linkClass(*c, p + "/link_class");
      spec.network = net;
    }
    build(ptr, [&] { addBoxes(t, inner, spec); });
  }

  void readVertices(Topology& t, const json& list, const std::string& ptr) {
    if (!list.is_array()) fail(ptr, "expected an array of vertices");
    for (size_t i = 0; i < list.size(); ++i) {
      std::string p = base::JsonLocations::child(ptr, i);
      const json& v = list[i];
      checkKeys(v, p, {"name", "kind", "box"});
      Vertex vertex;
      vertex.where = where(p);
      const json* name = member(v, "name");
      if (name == nullptr) fail(p, "missing key 'name'");
      vertex.name = text(*name, p + "/name");
      if (!validName(vertex.name)) fail(p + "/name", "a name uses letters, digits and _ . : + - only");
      if (const json* k = member(v, "kind")) {
        auto kind = parseVertexKind(text(*k, p + "/kind"));
        if (!kind) fail(p + "/kind", "vertex kind must be gpu, switch or nic");
        vertex.kind = *kind;
      }
      if (const json* b = member(v, "box")) vertex.box = integer(*b, p + "/box", 0, kMaxBoxes - 1);
      build(p, [&] { t.addVertex(vertex); });
    }
  }

  int32_t endpoint(const Topology& t, const json& object, const std::string& ptr, std::string_view key) const {
    const json* v = member(object, key);
    if (v == nullptr) fail(ptr, "missing key '" + std::string(key) + "'");
    std::string p = base::JsonLocations::child(ptr, key);
    std::string name = text(*v, p);
    auto id = t.findVertex(name);
    if (!id) fail(p, "no vertex named '" + name + "'");
    return *id;
  }

  void readLinks(Topology& t, const json& list, const std::string& ptr, const LinkDefaults& defaults) {
    if (!list.is_array()) fail(ptr, "expected an array of links");
    for (size_t i = 0; i < list.size(); ++i) {
      std::string p = base::JsonLocations::child(ptr, i);
      const json& l = list[i];
      checkKeys(l, p, {"from", "to", "bw", "alpha_us", "link_class", "directed"});
      Link link;
      link.where = where(p);
      link.from = endpoint(t, l, p, "from");
      link.to = endpoint(t, l, p, "to");
      const json* bw = member(l, "bw");
      if (bw == nullptr) fail(p, "missing key 'bw'");
      link.bandwidthGBps = positive(*bw, p + "/bw") * t.unitGBps;
      link.alphaUs = defaults.alphaUs;
      link.linkClass = defaults.linkClass;
      if (const json* a = member(l, "alpha_us")) link.alphaUs = latency(*a, p + "/alpha_us");
      if (const json* c = member(l, "link_class")) link.linkClass = linkClass(*c, p + "/link_class");
      bool directed = false;
      if (const json* d = member(l, "directed")) directed = boolean(*d, p + "/directed");
      build(p, [&] {
        t.addLink(link);
        if (!directed) t.addLink({link.to, link.from, link.bandwidthGBps, link.alphaUs, link.linkClass, link.where});
      });
    }
  }

  std::string_view text_;
  std::string source_;
  std::filesystem::path baseDir_;
  int nesting_;
  std::unique_ptr<base::JsonLocations> locations_;
};

Topology readAt(std::string_view text, const std::string& source, const std::filesystem::path& baseDir, int nesting) {
  return SpecReader(text, source, baseDir, nesting).read();
}

Topology readFileAt(const std::filesystem::path& path, int nesting) {
  std::string content = base::loadFile(path, kMaxSpecBytes);
  return readAt(content, path.string(), path.parent_path(), nesting);
}

Topology loadReference(std::string_view nameOrPath, const std::filesystem::path& baseDir, int nesting) {
  if (auto spec = catalogSpec(nameOrPath))
    return readAt(*spec, "specs/topologies/" + std::string(nameOrPath) + ".json", {}, nesting);
  std::filesystem::path path(nameOrPath);
  if (path.is_relative() && !baseDir.empty()) path = baseDir / path;
  try {
    return readFileAt(path, nesting);
  } catch (const base::InputError& e) {
    if (e.where().known() || e.message() != "no such file") throw;
    std::string names;
    for (const CatalogEntry& entry : catalogEntries()) {
      if (!names.empty()) names += ", ";
      names += entry.name;
    }
    throw base::InputError(std::string(nameOrPath), {}, "no such file, and not a catalog topology (" + names + ")");
  }
}

}  // namespace

Topology readTopology(std::string_view text, const std::string& sourceName, const std::filesystem::path& baseDir) {
  return readAt(text, sourceName, baseDir, 0);
}

Topology readTopologyFile(const std::filesystem::path& path) { return readFileAt(path, 0); }

Topology loadTopology(std::string_view nameOrPath) { return loadReference(nameOrPath, {}, 0); }

}  // namespace ccforge::topo
