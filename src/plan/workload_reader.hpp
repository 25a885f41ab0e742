// Reading workloads: the JSON format of docs/plan.md ("ccforge-workload/1"), ASTRA-sim 1.0's
// per-layer text format (DATA-parallel traces such as Resnet50_DataParallel.txt), and the
// built-in models (specs/workloads, compiled in). Every error is an InputError at file:line:column.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "plan/workload.hpp"

namespace ccforge::plan {

Workload readWorkloadJson(std::string_view text, const std::string& source);

// ASTRA-sim 1.0 workload text: line 1 the parallelism (DATA; HYBRID_* files are read for their
// weight-gradient ALLREDUCEs only), line 2 the layer count, then one line per layer in forward
// order: name, reserved, then (compute cycles, collective type, bytes) for forward, input
// gradient and weight gradient, then the update delay. Backward runs the layers in reverse, each
// as weight gradient then input gradient; a weight-gradient ALLREDUCE becomes a tensor of that
// many bytes. `cycleNs` converts cycles to time.
Workload readAstraWorkload(std::string_view text, const std::string& source, double cycleNs);

// The built-in models, by name (resnet50, vgg19, bert-base, gpt2-small, transformer).
std::vector<std::string> builtinWorkloadNames();
bool isBuiltinWorkload(std::string_view name);
Workload builtinWorkload(std::string_view name);

// A built-in name, or a file: ".txt" is read as ASTRA-sim text, anything else as JSON.
Workload loadWorkload(const std::string& nameOrPath, double astraCycleNs = 1.0);

}  // namespace ccforge::plan
