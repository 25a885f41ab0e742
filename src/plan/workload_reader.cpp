#include "plan/workload_reader.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <map>
#include <memory>
#include <sstream>

#include "base/input_error.hpp"
#include "base/load_file.hpp"
#include "base/text_position.hpp"
#include "plan/workload_catalog.hpp"
#include "base/json_locations.hpp"

namespace ccforge::plan {
namespace {

using nlohmann::json;

class WorkloadJsonReader {
 public:
  WorkloadJsonReader(std::string_view text, std::string source) : text_(text), source_(std::move(source)) {}

  Workload read() {
    base::LocatedJson parsed = base::parseLocatedJson(text_, source_);
    json root = std::move(parsed.root);
    locations_ = std::move(parsed.locations);
    if (!root.is_object()) fail("", "a workload is a JSON object");
    allowKeys(root, "", {"format", "name", "description", "units", "ops", "tensors"});
    Workload w;
    w.source = source_;
    std::string format = string(member(root, "", "format"), "/format");
    if (format != "ccforge-workload/1") fail("/format", "expected \"ccforge-workload/1\"");
    w.name = string(member(root, "", "name"), "/name");
    if (root.contains("description")) w.description = string(root["description"], "/description");
    if (root.contains("units")) w.units = string(root["units"], "/units");
    const json& tensors = member(root, "", "tensors");
    if (!tensors.is_array()) fail("/tensors", "expected an array");
    if (tensors.size() > kMaxTensors) fail("/tensors", "more than " + std::to_string(kMaxTensors) + " tensors");
    std::map<std::string, int32_t, std::less<>> tensorIndex;
    for (size_t i = 0; i < tensors.size(); ++i) {
      std::string p = base::JsonLocations::child("/tensors", i);
      const json& t = tensors[i];
      if (!t.is_object()) fail(p, "expected an object");
      allowKeys(t, p, {"name", "bytes"});
      Tensor tensor;
      tensor.name = string(member(t, p, "name"), p + "/name");
      tensor.bytes = unsignedInteger(member(t, p, "bytes"), p + "/bytes");
      tensor.where = locations_->at(p);
      if (!tensorIndex.emplace(tensor.name, static_cast<int32_t>(i)).second)
        fail(p + "/name", "second tensor named '" + tensor.name + "'");
      w.tensors.push_back(std::move(tensor));
    }
    const json& ops = member(root, "", "ops");
    if (!ops.is_array()) fail("/ops", "expected an array");
    if (ops.size() > kMaxOps) fail("/ops", "more than " + std::to_string(kMaxOps) + " ops");
    std::map<std::string, int32_t, std::less<>> opIndex;
    for (size_t i = 0; i < ops.size(); ++i) {
      std::string p = base::JsonLocations::child("/ops", i);
      const json& o = ops[i];
      if (!o.is_object()) fail(p, "expected an object");
      allowKeys(o, p, {"name", "phase", "kind", "time_us", "flops", "bytes", "output_bytes", "inputs", "gradients"});
      Op op;
      op.where = locations_->at(p);
      op.name = string(member(o, p, "name"), p + "/name");
      std::string phase = string(member(o, p, "phase"), p + "/phase");
      if (phase == "forward")
        op.phase = Phase::Forward;
      else if (phase == "backward")
        op.phase = Phase::Backward;
      else
        fail(p + "/phase", "expected \"forward\" or \"backward\"");
      if (o.contains("kind")) op.kind = string(o["kind"], p + "/kind");
      op.timeUs = number(member(o, p, "time_us"), p + "/time_us");
      if (o.contains("flops")) op.flops = number(o["flops"], p + "/flops");
      if (o.contains("bytes")) op.bytes = number(o["bytes"], p + "/bytes");
      if (o.contains("output_bytes")) op.outputBytes = number(o["output_bytes"], p + "/output_bytes");
      if (o.contains("inputs")) {
        const json& in = o["inputs"];
        if (!in.is_array()) fail(p + "/inputs", "expected an array of op names");
        if (in.size() > kMaxOpInputs) fail(p + "/inputs", "too many inputs");
        for (size_t k = 0; k < in.size(); ++k) {
          std::string q = base::JsonLocations::child(p + "/inputs", k);
          std::string name = string(in[k], q);
          auto it = opIndex.find(name);
          if (it == opIndex.end()) fail(q, "no op named '" + name + "' runs before this one");
          op.inputs.push_back(it->second);
        }
      }
      if (o.contains("gradients")) {
        const json& g = o["gradients"];
        if (!g.is_array()) fail(p + "/gradients", "expected an array of tensor names");
        for (size_t k = 0; k < g.size(); ++k) {
          std::string q = base::JsonLocations::child(p + "/gradients", k);
          std::string name = string(g[k], q);
          auto it = tensorIndex.find(name);
          if (it == tensorIndex.end()) fail(q, "no tensor named '" + name + "'");
          op.gradients.push_back(it->second);
        }
      }
      if (!opIndex.emplace(op.name, static_cast<int32_t>(i)).second)
        fail(p + "/name", "second op named '" + op.name + "'");
      w.ops.push_back(std::move(op));
    }
    finishWorkload(w);
    return w;
  }

 private:
  [[noreturn]] void fail(std::string_view pointer, const std::string& message) const {
    base::TextLocation where = locations_ ? locations_->at(pointer) : base::TextLocation{};
    throw base::InputError(source_, where, pointer.empty() ? message : std::string(pointer) + ": " + message);
  }
  const json& member(const json& object, const std::string& pointer, const char* key) const {
    auto it = object.find(key);
    if (it == object.end()) fail(pointer, std::string("missing \"") + key + "\"");
    return *it;
  }
  void allowKeys(const json& object, const std::string& pointer, std::initializer_list<std::string_view> keys) const {
    for (auto it = object.begin(); it != object.end(); ++it) {
      bool known = false;
      for (std::string_view k : keys) known = known || it.key() == k;
      if (!known) fail(base::JsonLocations::child(pointer, it.key()), "unknown key \"" + it.key() + "\"");
    }
  }
  std::string string(const json& v, const std::string& pointer) const {
    if (!v.is_string()) fail(pointer, "expected a string");
    return v.get<std::string>();
  }
  double number(const json& v, const std::string& pointer) const {
    if (!v.is_number()) fail(pointer, "expected a number");
    double d = v.get<double>();
    if (!std::isfinite(d) || d < 0 || d > 1e18) fail(pointer, "expected a number from 0 to 1e18");
    return d;
  }
  uint64_t unsignedInteger(const json& v, const std::string& pointer) const {
    if (!v.is_number_unsigned()) fail(pointer, "expected a positive integer");
    uint64_t u = v.get<uint64_t>();
    if (u == 0 || u > kMaxTensorBytes) fail(pointer, "expected 1 .. 2^40 bytes");
    return u;
  }

  std::string_view text_;
  std::string source_;
  std::unique_ptr<base::JsonLocations> locations_;
};

}  // namespace

Workload readWorkloadJson(std::string_view text, const std::string& source) {
  if (text.size() > kMaxWorkloadBytes) throw base::InputError(source, {}, "workload larger than 64 MiB");
  return WorkloadJsonReader(text, source).read();
}

Workload readAstraWorkload(std::string_view text, const std::string& source, double cycleNs) {
  if (!(cycleNs > 0) || cycleNs > 1e6) throw std::invalid_argument("the cycle time must be in (0, 1e6] ns");
  if (text.size() > kMaxWorkloadBytes) throw base::InputError(source, {}, "workload larger than 64 MiB");
  base::LineIndex lines(text);
  // Tokens with their offsets, line by line.
  struct Token {
    std::string_view text;
    size_t offset;
  };
  std::vector<std::vector<Token>> rows;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::vector<Token> row;
    size_t i = pos;
    while (i < end) {
      while (i < end && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r')) ++i;
      size_t b = i;
      while (i < end && text[i] != ' ' && text[i] != '\t' && text[i] != '\r') ++i;
      if (i > b) row.push_back({text.substr(b, i - b), b});
    }
    if (!row.empty()) rows.push_back(std::move(row));
    pos = end + 1;
  }
  auto fail = [&](size_t offset, const std::string& message) {
    throw base::InputError(source, lines.at(offset), message);
  };
  auto integer = [&](const Token& t, const char* what) -> uint64_t {
    uint64_t v = 0;
    if (t.text.empty() || t.text.size() > 15) fail(t.offset, std::string("expected ") + what);
    for (char c : t.text) {
      if (c < '0' || c > '9') fail(t.offset, std::string("expected ") + what + ", found '" + std::string(t.text) + "'");
      v = v * 10 + static_cast<uint64_t>(c - '0');
    }
    return v;
  };
  if (rows.size() < 2)
    throw base::InputError(source, {}, "an ASTRA-sim workload has a parallelism line and a layer count");
  std::string_view kind = rows[0][0].text;
  if (kind.substr(0, 4) != "DATA" && kind.substr(0, 6) != "HYBRID")
    fail(rows[0][0].offset, "expected DATA or HYBRID_* as the parallelism");
  uint64_t layers = integer(rows[1][0], "the layer count");
  if (layers == 0 || layers > kMaxOps / 3) fail(rows[1][0].offset, "the layer count must be 1 .. 33333");
  if (rows.size() - 2 != layers)
    fail(rows[1][0].offset, "declares " + std::to_string(layers) + " layers but " + std::to_string(rows.size() - 2) +
                                " layer lines follow");
  Workload w;
  w.source = source;
  std::string base(source);
  if (auto slash = base.find_last_of('/'); slash != std::string::npos) base = base.substr(slash + 1);
  w.name = base;
  w.description = "imported from ASTRA-sim workload " + base;
  w.units = "one ASTRA-sim step";
  struct Layer {
    std::string name;
    double fwd, ig, wg;
    uint64_t grad;
    base::TextLocation where;
  };
  std::vector<Layer> parsed;
  for (size_t r = 2; r < rows.size(); ++r) {
    const std::vector<Token>& row = rows[r];
    // Some public files leave a field empty ("NONE" followed directly by the next time): read
    // the compute times and (type, size) pairs by position, tolerating a missing size after NONE.
    if (row.size() < 11)
      fail(row[0].offset, "a layer line has at least 11 fields (" + std::to_string(row.size()) + " found)");
    Layer l;
    l.name = std::string(row[0].text);
    l.where = lines.at(row[0].offset);
    size_t k = 2;
    double times[3] = {0, 0, 0};
    uint64_t sizes[3] = {0, 0, 0};
    std::string types[3];
    auto isCollective = [](std::string_view t) {
      return t == "ALLREDUCE" || t == "ALLGATHER" || t == "ALLTOALL" || t == "REDUCESCATTER" || t == "NONE";
    };
    for (int part = 0; part < 3; ++part) {
      if (k >= row.size()) fail(row.back().offset, "the layer line ends early");
      times[part] = static_cast<double>(integer(row[k++], "a compute time in cycles"));
      // Some traces (the public Resnet50_DataParallel.txt) give the layer's dimensions between
      // the time and the collective: integers, skipped.
      while (k < row.size() && !isCollective(row[k].text)) {
        if (row[k].text.empty() || row[k].text[0] < '0' || row[k].text[0] > '9')
          fail(row[k].offset, "expected a collective type (ALLREDUCE, ALLGATHER, ALLTOALL, REDUCESCATTER, NONE)");
        integer(row[k++], "a dimension");
      }
      if (k >= row.size()) fail(row.back().offset, "the layer line ends early");
      types[part] = std::string(row[k++].text);
      if (k >= row.size()) fail(row.back().offset, "the layer line ends early");
      sizes[part] = integer(row[k++], "a size in bytes");
    }
    l.fwd = times[0] * cycleNs / 1000.0;
    l.ig = times[1] * cycleNs / 1000.0;
    l.wg = times[2] * cycleNs / 1000.0;
    l.grad = types[2] == "ALLREDUCE" ? sizes[2] : 0;
    if (l.grad > kMaxTensorBytes) fail(row[0].offset, "a gradient larger than 2^40 bytes");
    parsed.push_back(std::move(l));
  }
  for (size_t i = 0; i < parsed.size(); ++i) {
    Op op;
    op.name = parsed[i].name + ".fwd";
    op.phase = Phase::Forward;
    op.kind = "layer";
    op.timeUs = parsed[i].fwd;
    op.where = parsed[i].where;
    if (i > 0) op.inputs.push_back(static_cast<int32_t>(i - 1));
    w.ops.push_back(std::move(op));
  }
  int32_t previous = static_cast<int32_t>(parsed.size()) - 1;
  for (size_t n = parsed.size(); n-- > 0;) {
    const Layer& l = parsed[n];
    Op wg;
    wg.name = l.name + ".wgrad";
    wg.phase = Phase::Backward;
    wg.kind = "layer";
    wg.timeUs = l.wg;
    wg.where = l.where;
    wg.inputs.push_back(previous);
    if (l.grad > 0) {
      Tensor t;
      t.name = l.name;
      t.bytes = l.grad;
      t.where = l.where;
      w.tensors.push_back(std::move(t));
      wg.gradients.push_back(static_cast<int32_t>(w.tensors.size()) - 1);
    }
    w.ops.push_back(std::move(wg));
    previous = static_cast<int32_t>(w.ops.size()) - 1;
    Op ig;
    ig.name = l.name + ".igrad";
    ig.phase = Phase::Backward;
    ig.kind = "layer";
    ig.timeUs = l.ig;
    ig.where = l.where;
    ig.inputs.push_back(previous);
    w.ops.push_back(std::move(ig));
    previous = static_cast<int32_t>(w.ops.size()) - 1;
  }
  if (w.tensors.empty()) throw base::InputError(source, {}, "no layer has a weight-gradient ALLREDUCE");
  finishWorkload(w);
  return w;
}

std::vector<std::string> builtinWorkloadNames() {
  std::vector<std::string> names;
  for (const WorkloadCatalogEntry& e : workloadCatalog()) names.emplace_back(e.name);
  return names;
}

bool isBuiltinWorkload(std::string_view name) {
  for (const WorkloadCatalogEntry& e : workloadCatalog())
    if (e.name == name) return true;
  return false;
}

Workload builtinWorkload(std::string_view name) {
  for (const WorkloadCatalogEntry& e : workloadCatalog())
    if (e.name == name) {
      Workload w = readWorkloadJson(e.json, "specs/workloads/" + std::string(name) + ".json");
      w.source = "builtin:" + std::string(name);
      return w;
    }
  std::string known;
  for (const std::string& n : builtinWorkloadNames()) known += (known.empty() ? "" : ", ") + n;
  throw std::invalid_argument("no built-in model '" + std::string(name) + "' (built in: " + known + ")");
}

Workload loadWorkload(const std::string& nameOrPath, double astraCycleNs) {
  if (isBuiltinWorkload(nameOrPath)) return builtinWorkload(nameOrPath);
  std::string text = base::loadFile(nameOrPath, kMaxWorkloadBytes);
  if (nameOrPath.size() > 4 && nameOrPath.substr(nameOrPath.size() - 4) == ".txt")
    return readAstraWorkload(text, nameOrPath, astraCycleNs);
  return readWorkloadJson(text, nameOrPath);
}

}  // namespace ccforge::plan
