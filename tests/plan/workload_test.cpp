// Workloads (src/plan/workload_reader.hpp): the built-in models' exact parameter counts, the
// JSON format's located errors, ASTRA-sim import.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "base/input_error.hpp"
#include "plan/iteration.hpp"
#include "plan/op_fusion.hpp"
#include "plan/workload_reader.hpp"

namespace ccforge::plan {
namespace {

uint64_t parameters(const Workload& w) {
  uint64_t bytes = 0;
  for (const Tensor& t : w.tensors) bytes += t.bytes;
  REQUIRE(bytes % 4 == 0);  // fp32 gradients
  return bytes / 4;
}

std::string errorOf(const std::string& text) {
  try {
    readWorkloadJson(text, "w.json");
  } catch (const base::InputError& e) {
    return e.what();
  }
  return "no error";
}

const char* kSmall = R"({
  "format": "ccforge-workload/1",
  "name": "two-layer",
  "ops": [
    {"name": "a.fwd", "phase": "forward", "time_us": 10},
    {"name": "b.fwd", "phase": "forward", "time_us": 20, "inputs": ["a.fwd"]},
    {"name": "b.bwd", "phase": "backward", "time_us": 40, "inputs": ["b.fwd"], "gradients": ["b.w"]},
    {"name": "a.bwd", "phase": "backward", "time_us": 30, "inputs": ["b.bwd"], "gradients": ["a.w"]}
  ],
  "tensors": [{"name": "a.w", "bytes": 400}, {"name": "b.w", "bytes": 800}]
})";

}  // namespace

TEST_CASE("built-in models have the canonical parameter counts") {
  CHECK(parameters(builtinWorkload("resnet50")) == 25'557'032);
  CHECK(parameters(builtinWorkload("vgg19")) == 143'667'240);
  CHECK(parameters(builtinWorkload("bert-base")) == 109'482'240);
  CHECK(parameters(builtinWorkload("gpt2-small")) == 124'439'808);
  // Transformer base, d = 512, ffn = 2048, shared 37000-token embedding, post-LN:
  // encoder layer 4(d^2 + d) + 2 d ffn + ffn + d + 4 d; decoder layer adds cross attention
  // 4(d^2 + d) + 2d.
  const uint64_t d = 512, ffn = 2048, vocab = 37000;
  const uint64_t enc = 4 * (d * d + d) + 2 * d * ffn + ffn + d + 4 * d;
  const uint64_t dec = enc + 4 * (d * d + d) + 2 * d;
  CHECK(parameters(builtinWorkload("transformer")) == vocab * d + 6 * enc + 6 * dec);
  CHECK(builtinWorkloadNames() ==
        std::vector<std::string>{"bert-base", "gpt2-small", "resnet50", "transformer", "vgg19"});
}

TEST_CASE("built-in backward ops pass back their input activations' gradients") {
  // The gradient of an input activation is as large as the activation: ResNet-50's layer1.0.conv1
  // reads the max pool's 64 x 56 x 56 fp16 elements per image, 32 images (issue 28: 0 before).
  const Workload resnet = builtinWorkload("resnet50");
  const auto conv =
      std::find_if(resnet.ops.begin(), resnet.ops.end(), [](const Op& o) { return o.name == "layer1.0.conv1.bwd"; });
  REQUIRE(conv != resnet.ops.end());
  CHECK(conv->outputBytes == 64.0 * 56 * 56 * 32 * 2);
  // Only the ops that read the data inputs (image, tokens) pass nothing back.
  const std::map<std::string, std::vector<std::string>> readsOnlyData{
      {"resnet50", {"conv1.bwd"}},
      {"vgg19", {"features.conv1.bwd"}},
      {"bert-base", {"embeddings.bwd"}},
      {"gpt2-small", {"embeddings.bwd"}},
      {"transformer", {"tgt_embed.bwd", "src_embed.bwd"}}};
  for (const auto& [model, expected] : readsOnlyData) {
    INFO(model);
    std::vector<std::string> zero;
    for (const Op& o : builtinWorkload(model).ops)
      if (o.phase == Phase::Backward && o.outputBytes == 0) zero.push_back(o.name);
    CHECK(zero == expected);
  }
}

TEST_CASE("GPT-2's tied embedding gradient is complete only at the end of backward") {
  Workload w = builtinWorkload("gpt2-small");
  ComputeSchedule s = computeSchedule(w, FusionStrategy::none(w.ops.size()), RooflineEstimator());
  // wte has two producers (the LM head, first in backward, and the embedding, last).
  int32_t wte = -1;
  for (size_t i = 0; i < w.tensors.size(); ++i)
    if (w.tensors[i].name == "wte.weight") wte = static_cast<int32_t>(i);
  REQUIRE(wte >= 0);
  CHECK(w.tensors[static_cast<size_t>(wte)].producers.size() == 2);
  CHECK(s.tensorOrder.back() == wte);
  CHECK(s.instance.readyUs.back() == s.computeEndUs);
}

TEST_CASE("a small workload reads and schedules as written") {
  Workload w = readWorkloadJson(kSmall, "w.json");
  REQUIRE(w.ops.size() == 4);
  CHECK(w.forwardUs() == 30);
  CHECK(w.backwardUs() == 70);
  ComputeSchedule s = computeSchedule(w, FusionStrategy::none(4), RooflineEstimator());
  // b.w ready at 10 + 20 + 40 = 70, a.w at 100.
  CHECK(s.tensorOrder == std::vector<int32_t>{1, 0});
  CHECK(s.instance.readyUs == std::vector<double>{70, 100});
  CHECK(s.instance.bytes == std::vector<uint64_t>{800, 400});
}

// Locations are of the offending value (line:column counted in kSmall as edited).
TEST_CASE("malformed workloads are located errors") {
  CHECK(errorOf("{\"format\": 1,}").find("w.json:1:14: malformed JSON") == 0);
  CHECK(errorOf("{\"format\": 1e400}") == "w.json: malformed JSON: number overflow parsing '1e400'");
  std::string t = kSmall;
  std::string badInput = t;
  badInput.replace(badInput.find("\"inputs\": [\"a.fwd\"]"), 19, "\"inputs\": [\"zz\"]");
  CHECK(errorOf(badInput) == "w.json:6:69: /ops/1/inputs/0: no op named 'zz' runs before this one");
  std::string badPhase = t;
  badPhase.replace(badPhase.find("\"phase\": \"forward\""), 18, "\"phase\": \"sideways\"");
  CHECK(errorOf(badPhase) == "w.json:5:32: /ops/0/phase: expected \"forward\" or \"backward\"");
  std::string orphan = t;
  orphan.replace(orphan.find(", \"gradients\": [\"a.w\"]"), 22, "");
  CHECK(errorOf(orphan) == "w.json:10:15: tensor 'a.w' is produced by no op");
  std::string unknownKey = t;
  unknownKey.replace(unknownKey.find("\"name\": \"two-layer\""), 19, "\"nmae\": \"two-layer\"");
  CHECK(errorOf(unknownKey).find("w.json:3:11: /nmae: unknown key") == 0);
  std::string zero = t;
  zero.replace(zero.find("\"bytes\": 400"), 12, "\"bytes\": 0");
  CHECK(errorOf(zero) == "w.json:10:40: /tensors/0/bytes: expected 1 .. 2^40 bytes");
}

TEST_CASE("ASTRA-sim workloads import with backward in reverse layer order") {
  // Two layers; times in cycles (1 ns each here), weight-gradient ALLREDUCE sizes in bytes.
  const char* text =
      "DATA\n"
      "2\n"
      "conv1\t-1\t1000\tNONE\t0\t2000\tNONE\t0\t3000\tALLREDUCE\t37632\t10\n"
      "fc\t-1\t500\tNONE\t0\t600\tNONE\t0\t700\tALLREDUCE\t8192000\t10\n";
  Workload w = readAstraWorkload(text, "r.txt", 1.0);
  REQUIRE(w.ops.size() == 6);
  CHECK(w.ops[2].name == "fc.wgrad");
  CHECK(w.ops[3].name == "fc.igrad");
  CHECK(w.ops[4].name == "conv1.wgrad");
  REQUIRE(w.tensors.size() == 2);
  CHECK(w.tensors[0].bytes == 8'192'000);
  CHECK(w.tensors[1].bytes == 37'632);
  ComputeSchedule s = computeSchedule(w, FusionStrategy::none(w.ops.size()), RooflineEstimator());
  // fwd 1.5 us; fc.wgrad ends at 2.2 us; fc.igrad 2.8; conv1.wgrad 5.8.
  CHECK(s.instance.readyUs[0] == Approx(2.2));
  CHECK(s.instance.readyUs[1] == Approx(5.8));
  // Traces that give layer dimensions between the time and the collective read the same.
  const char* withDims =
      "DATA\n"
      "1\n"
      "conv1\t-1\t1000\t100\t27\t8\tNONE\t0\t2000\t100\t27\t8\tNONE\t0\t3000\t100\t27\t8\tALLREDUCE\t864\t10\n";
  Workload d = readAstraWorkload(withDims, "d.txt", 2.0);
  REQUIRE(d.tensors.size() == 1);
  CHECK(d.tensors[0].bytes == 864);
  CHECK(d.ops[0].timeUs == 2.0);  // 1000 cycles of 2 ns
  CHECK(d.ops[1].timeUs == 6.0);  // weight gradient: 3000 cycles
  try {
    readAstraWorkload("DATA\n3\nconv1 -1 1 NONE 0 1 NONE 0 1 ALLREDUCE 4 1\n", "bad.txt", 1.0);
    FAIL("no error");
  } catch (const base::InputError& e) {
    CHECK(std::string(e.what()) == "bad.txt:2:1: declares 3 layers but 1 layer lines follow");
  }
  try {
    readAstraWorkload("DATA\n1\nconv1 -1 1x NONE 0 1 NONE 0 1 ALLREDUCE 4 1\n", "bad.txt", 1.0);
    FAIL("no error");
  } catch (const base::InputError& e) {
    CHECK(std::string(e.what()) == "bad.txt:3:10: expected a compute time in cycles, found '1x'");
  }
  try {
    readAstraWorkload("DATA\n1\nconv1 -1 1 SOMETIMES 0 1 NONE 0 1 ALLREDUCE 4 1\n", "bad.txt", 1.0);
    FAIL("no error");
  } catch (const base::InputError& e) {
    CHECK(std::string(e.what()) ==
          "bad.txt:3:12: expected a collective type (ALLREDUCE, ALLGATHER, ALLTOALL, REDUCESCATTER, NONE)");
  }
}

}  // namespace ccforge::plan
