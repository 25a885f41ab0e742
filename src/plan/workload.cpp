#include "plan/workload.hpp"

#include <cmath>
#include <map>

#include "base/input_error.hpp"

namespace ccforge::plan {

std::string_view phaseName(Phase p) { return p == Phase::Forward ? "forward" : "backward"; }

double Workload::forwardUs() const {
  double t = 0;
  for (const Op& op : ops)
    if (op.phase == Phase::Forward) t += op.timeUs;
  return t;
}

double Workload::backwardUs() const {
  double t = 0;
  for (const Op& op : ops)
    if (op.phase == Phase::Backward) t += op.timeUs;
  return t;
}

uint64_t Workload::gradientBytes() const {
  uint64_t s = 0;
  for (const Tensor& t : tensors) s += t.bytes;
  return s;
}

void finishWorkload(Workload& w) {
  auto fail = [&](base::TextLocation where, const std::string& message) {
    throw base::InputError(w.source, where, message);
  };
  if (w.ops.empty()) fail({}, "the workload has no ops");
  if (w.ops.size() > kMaxOps) fail({}, "more than " + std::to_string(kMaxOps) + " ops");
  if (w.tensors.size() > kMaxTensors) fail({}, "more than " + std::to_string(kMaxTensors) + " tensors");
  std::map<std::string, size_t, std::less<>> names;
  for (size_t i = 0; i < w.ops.size(); ++i) {
    const Op& op = w.ops[i];
    if (op.name.empty()) fail(op.where, "op without a name");
    if (!names.emplace(op.name, i).second) fail(op.where, "second op named '" + op.name + "'");
    for (double v : {op.timeUs, op.flops, op.bytes, op.outputBytes})
      if (!std::isfinite(v) || v < 0 || v > 1e18) fail(op.where, "op '" + op.name + "': a time or size out of range");
    if (op.inputs.size() > kMaxOpInputs) fail(op.where, "op '" + op.name + "' has too many inputs");
    for (int32_t in : op.inputs)
      if (in < 0 || static_cast<size_t>(in) >= i)
        fail(op.where, "op '" + op.name + "' reads an op that does not run before it");
  }
  std::map<std::string, size_t, std::less<>> tensorNames;
  for (size_t t = 0; t < w.tensors.size(); ++t) {
    Tensor& tensor = w.tensors[t];
    if (!tensorNames.emplace(tensor.name, t).second) fail(tensor.where, "second tensor named '" + tensor.name + "'");
    if (tensor.bytes == 0 || tensor.bytes > kMaxTensorBytes)
      fail(tensor.where, "tensor '" + tensor.name + "': bytes must be 1 .. 2^40");
    tensor.producers.clear();
  }
  for (size_t i = 0; i < w.ops.size(); ++i)
    for (int32_t g : w.ops[i].gradients) {
      if (g < 0 || static_cast<size_t>(g) >= w.tensors.size()) fail(w.ops[i].where, "unknown gradient tensor");
      std::vector<int32_t>& p = w.tensors[static_cast<size_t>(g)].producers;
      if (p.empty() || p.back() != static_cast<int32_t>(i)) p.push_back(static_cast<int32_t>(i));
    }
  for (const Tensor& tensor : w.tensors)
    if (tensor.producers.empty()) fail(tensor.where, "tensor '" + tensor.name + "' is produced by no op");
}

}  // namespace ccforge::plan
