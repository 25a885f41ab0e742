// `topo import` (topology/machine_import.hpp): real and synthetic NCCL dumps and nvidia-smi
// matrices (tests/fixtures/topology-dumps/README.md names the sources) become specs whose graph is
// stated here from the files themselves; bad input is an InputError at file:line:column.
#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>
#include <stdexcept>

#include "base/input_error.hpp"
#include "topology/machine_import.hpp"
#include "topology/routes.hpp"
#include "topology/spec_reader.hpp"

using namespace ccforge;
using namespace ccforge::topo;
using Catch::Matchers::Contains;

namespace {

const std::string kDumps = std::string(CCFORGE_FIXTURES) + "/topology-dumps/";

Topology importFiles(const std::vector<std::string>& names, ImportOptions options = {}) {
  std::vector<ImportedBox> boxes;
  for (const std::string& n : names) boxes.push_back(readMachineFile(kDumps + n));
  ImportResult r = buildImportedSpec(boxes, options);
  return readTopology(r.specJson, "imported.json", {});
}

Rational linkGBps(const Topology& t, std::string_view from, std::string_view to) {
  auto l = t.findLink(*t.findVertex(from), *t.findVertex(to));
  REQUIRE(l);
  return t.links()[static_cast<size_t>(*l)].bandwidthGBps;
}

bool hasLink(const Topology& t, std::string_view from, std::string_view to) {
  return t.findLink(*t.findVertex(from), *t.findVertex(to)).has_value();
}

std::string importError(const std::string& file) {
  try {
    (void)readMachineFile(kDumps + file);
  } catch (const base::InputError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("import: the IBM Cloud H100 dump is 8 GPUs on one NVSwitch at 18 x 25 GB/s, a 25 GB/s NIC each") {
  Topology t = importFiles({"h100-ibm-cloud-gx3d.xml"});
  CHECK(t.gpus().size() == 8);
  CHECK(t.unitGBps == 25);
  for (int g = 0; g < 8; ++g) {
    std::string gpu = "gpu" + std::to_string(g), nic = "nic" + std::to_string(g);
    CHECK(linkGBps(t, gpu, "nvswitch") == 450);  // 5 + 5 + 4 + 4 NVLink4 of 25 GB/s
    CHECK(linkGBps(t, "nvswitch", gpu) == 450);
  }
  // NICs in dev order: mlx5_0 (dev 0) shares its PCIe switch with GPU dev 7.
  CHECK(linkGBps(t, "gpu7", "nic0") == 25);  // 200000 Mb/s
  CHECK(linkGBps(t, "gpu0", "nic7") == 25);
  CHECK_FALSE(hasLink(t, "gpu0", "nic0"));
  CHECK_FALSE(t.findVertex("cpu0"));  // NVLink connects every GPU: no PCIe
}

TEST_CASE("import: the spec keeps the GPU generation and NVLS; several boxes get PXN") {
  const Topology one = importFiles({"h100-ibm-cloud-gx3d.xml"});
  CHECK(one.sm == 90);
  CHECK(one.nvls);       // sm 90 GPUs on an NVSwitch
  CHECK_FALSE(one.pxn);  // one box: nothing to relay
  ImportOptions noNvls;
  noNvls.nvls = false;
  CHECK_FALSE(importFiles({"h100-ibm-cloud-gx3d.xml"}, noNvls).nvls);
  CHECK(importFiles({"synthetic-dgx-a100.xml"}).sm == 80);
  CHECK_FALSE(importFiles({"synthetic-dgx-a100.xml"}).nvls);   // sm 80 has no NVLS
  CHECK_FALSE(importFiles({"synthetic-dgx1-v100.xml"}).nvls);  // no NVSwitch
  ImportOptions two;
  two.boxes = 2;
  const Topology rails = importFiles({"h100-ibm-cloud-gx3d.xml"}, two);
  CHECK(rails.sm == 90);
  CHECK(rails.nvls);
  CHECK(rails.pxn);
}

TEST_CASE("import: two real H100 boxes on rails route every ring connection, across boxes through PXN") {
  ImportOptions o;
  o.boxes = 2;
  const Topology t = importFiles({"h100-ibm-cloud-gx3d.xml"}, o);
  REQUIRE(t.findVertex("spine"));
  // b0.gpu7 -> b1.gpu0: the receiver is GPU 0 of its box, so the proxy is b0.gpu0, whose NIC is
  // nic7 (mlx5_7 shares a PCIe switch with GPU dev 0), on rail7 in both boxes.
  const std::optional<Route> r = routeBetween(t, 7, 8);
  REQUIRE(r);
  std::vector<std::string> via;
  for (int32_t id : r->links)
    via.push_back(t.vertices()[static_cast<size_t>(t.links()[static_cast<size_t>(id)].to)].name);
  CHECK(via == std::vector<std::string>{"b0.nvswitch", "b0.gpu0", "b0.nic7", "rail7", "b1.nic7", "b1.gpu0"});
  for (int32_t a = 0; a < 16; ++a) {
    INFO("rank " << a << " -> " << (a + 1) % 16);
    CHECK(routeBetween(t, a, (a + 1) % 16));
  }
  // Without a spine the rails meet only through PXN, which still routes every ring connection.
  o.spineOversubscription = 0;
  const Topology bare = importFiles({"h100-ibm-cloud-gx3d.xml"}, o);
  CHECK_FALSE(bare.findVertex("spine"));
  for (int32_t a = 0; a < 16; ++a) CHECK(routeBetween(bare, a, (a + 1) % 16));
}

TEST_CASE("import: a two-tier Clos puts the NICs of boxes_per_leaf boxes on one leaf under the spine") {
  ImportOptions o;
  o.boxes = 4;
  o.fabric = Fabric::Clos;
  o.boxesPerLeaf = 2;
  o.spineOversubscription = 2;
  const Topology t = importFiles({"synthetic-dgx-a100.xml"}, o);
  CHECK(t.boxCount() == 4);
  CHECK(linkGBps(t, "b1.nic3", "leaf0") == 25);
  CHECK(linkGBps(t, "b2.nic3", "leaf1") == 25);
  CHECK_FALSE(t.findVertex("leaf2"));
  // Each leaf's uplink: its 2 boxes x 8 NICs x 25 GB/s over the oversubscription 2.
  CHECK(linkGBps(t, "leaf0", "spine") == 200);
  CHECK(linkGBps(t, "spine", "leaf1") == 200);
  CHECK(routeBetween(t, 0, 31));
}

TEST_CASE("import: the synthetic DGX-1 keeps the cube-mesh's NVLink multiplicities") {
  Topology t = importFiles({"synthetic-dgx1-v100.xml"});
  CHECK(t.gpus().size() == 8);
  CHECK(t.unitGBps == 25);
  CHECK(linkGBps(t, "gpu0", "gpu1") == 50);
  CHECK(linkGBps(t, "gpu0", "gpu2") == 25);
  CHECK(linkGBps(t, "gpu6", "gpu7") == 50);
  CHECK_FALSE(hasLink(t, "gpu0", "gpu5"));
  int nvlinks = 0;
  for (const Link& l : t.links()) nvlinks += l.linkClass == LinkClass::NVLink ? 1 : 0;
  CHECK(nvlinks == 32);  // 16 pairs, both directions
}

TEST_CASE("import: the PCIe-only A100 pair goes through its two CPUs") {
  Topology t = importFiles({"a100-pcie-2gpu-nccl-2397.xml"});
  CHECK(t.gpus().size() == 2);
  CHECK(t.unitGBps == 1);
  CHECK(linkGBps(t, "gpu0", "cpu0") == 32);  // 16 GT/s x 16 lanes / 8
  CHECK(linkGBps(t, "gpu1", "cpu1") == 32);
  CHECK(linkGBps(t, "cpu0", "cpu1") == 32);  // assumed: the slowest GPU link
  // Two 100 Gb/s ports under CPU 0, which shares its root with GPU 0.
  CHECK(linkGBps(t, "gpu0", "nic0") == Rational(25, 2));
  CHECK(linkGBps(t, "gpu0", "nic1") == Rational(25, 2));
}

TEST_CASE("import: the real NCv4 file's self-targeted NVLinks are left out, so its GPUs meet over PCIe") {
  Topology t = importFiles({"ncv4-topo-azhpc-images.xml"});
  CHECK(t.gpus().size() == 4);
  CHECK(t.unitGBps == 1);
  for (int g = 0; g < 4; ++g)
    CHECK(linkGBps(t, "gpu" + std::to_string(g), "cpu" + std::to_string(g)) == 16);  // no speed: assumed
  CHECK(linkGBps(t, "cpu0", "cpu3") == 16);
  CHECK(linkGBps(t, "gpu0", "nic0") == Rational(25, 2));  // eth0 directly under CPU 0, as GPU 0
  CHECK_FALSE(hasLink(t, "gpu0", "gpu1"));
}

TEST_CASE("import: the real single-T600 dump, two boxes on one switch") {
  ImportOptions o;
  o.boxes = 2;
  o.fabric = Fabric::Switch;
  o.networkAlphaUs = 1.5;
  Topology t = importFiles({"t600-nccl-tests-329.xml"}, o);
  CHECK(t.gpus().size() == 2);
  CHECK(linkGBps(t, "b0.gpu0", "b0.nic0") == Rational(25, 2));
  auto l = t.findLink(*t.findVertex("b1.nic0"), *t.findVertex("net"));
  REQUIRE(l);
  CHECK(t.links()[static_cast<size_t>(*l)].alphaUs == 1.5);
  CHECK(t.links()[static_cast<size_t>(*l)].linkClass == LinkClass::Network);
}

TEST_CASE("import: two boxes on rails join NIC j of each box through switch rail<j>") {
  ImportOptions o;
  o.boxes = 2;
  Topology t = importFiles({"synthetic-dgx-a100.xml"}, o);
  CHECK(t.gpus().size() == 16);
  CHECK(t.boxCount() == 2);
  CHECK(linkGBps(t, "b1.gpu3", "b1.nvswitch") == 300);
  CHECK(linkGBps(t, "b0.nic5", "rail5") == 25);
  CHECK(linkGBps(t, "rail5", "b1.nic5") == 25);
  CHECK(linkGBps(t, "b1.gpu5", "b1.nic5") == 25);
  o.railSwitches = 2;  // even NICs on rail0, odd on rail1
  Topology even = importFiles({"synthetic-dgx-a100.xml"}, o);
  CHECK(linkGBps(even, "b1.nic5", "rail1") == 25);
  CHECK(linkGBps(even, "b0.nic4", "rail0") == 25);
  CHECK_FALSE(even.findVertex("rail2"));
  ImportOptions sw;
  sw.fabric = Fabric::Switch;
  Topology s = importFiles({"synthetic-dgx-a100.xml", "synthetic-dgx-a100.xml"}, sw);
  CHECK(s.gpus().size() == 16);
  CHECK(linkGBps(s, "b0.nic0", "net") == 25);
  CHECK_FALSE(s.findVertex("rail0"));
}

TEST_CASE("import: nvidia-smi NV12 on every pair with --sm 80 is an NVSwitch") {
  ImportOptions o;
  o.sm = 80;
  Topology t = importFiles({"smi-synthetic-dgx-a100.txt"}, o);
  CHECK(t.gpus().size() == 8);
  CHECK(linkGBps(t, "gpu2", "nvswitch") == 300);
  CHECK_FALSE(hasLink(t, "gpu0", "gpu1"));
  CHECK_FALSE(t.findVertex("nic0"));  // nvidia-smi gives no NIC speed
}

TEST_CASE("import: the real DGX-1 nvidia-smi matrix (Microway) is the cube-mesh with its NV1/NV2 multiplicities") {
  ImportOptions o;
  o.sm = 70;
  Topology t = importFiles({"smi-dgx1-microway.txt"}, o);
  CHECK(t.gpus().size() == 8);
  // Rows as printed: GPU0 has NV1 to GPU1 and GPU2, NV2 to GPU3 and GPU4, SYS to the rest.
  CHECK(linkGBps(t, "gpu0", "gpu1") == 25);
  CHECK(linkGBps(t, "gpu0", "gpu2") == 25);
  CHECK(linkGBps(t, "gpu0", "gpu3") == 50);
  CHECK(linkGBps(t, "gpu0", "gpu4") == 50);
  CHECK_FALSE(hasLink(t, "gpu0", "gpu5"));
  CHECK(linkGBps(t, "gpu7", "gpu6") == 50);
  CHECK_FALSE(t.findVertex("nvswitch"));  // 6 links per GPU: not more than a V100 has
  CHECK_FALSE(t.findVertex("cpu0"));
}

TEST_CASE("import: the real nvidia-smi 2 x RTX 3090 matrix is PCIe only") {
  Topology t = importFiles({"smi-2x3090-pcie-club3090-178.txt"});
  CHECK(t.gpus().size() == 2);
  CHECK(linkGBps(t, "gpu0", "cpu0") == 16);  // no PCIe speed in nvidia-smi: assumed
}

TEST_CASE("import: nvidia-smi NVLinks need --sm") {
  std::vector<ImportedBox> boxes{readMachineFile(kDumps + "smi-synthetic-dgx-a100.txt")};
  CHECK_THROWS_WITH(buildImportedSpec(boxes, {}), Contains("give --sm"));
}

TEST_CASE("import: bad and partial files are located errors") {
  // The poster cut the dump off after the first NIC: expat reports the end of input.
  CHECK_THAT(importError("h200-vm-nccl-tests-256-excerpt.xml"),
             Contains("h200-vm-nccl-tests-256-excerpt.xml:13:1: malformed XML"));
  CHECK_THAT(importError("ndv4-topo-azhpc-images.xml"),
             Contains("ndv4-topo-azhpc-images.xml:1:1: the dump has no <gpu>: 8 GPU-class <pci> devices"));
  CHECK_THAT(importError("smi-dgx-a100-nccl-1505-excerpt.txt"),
             Contains("smi-dgx-a100-nccl-1505-excerpt.txt:7:1: the matrix ends after 4 of 8 GPU rows"));
  CHECK_THROWS_WITH(readNcclTopologyDump("<system>\n  <cpu>\n    <gpu dev=\"0\" sm=\"x9\"/>", "t.xml"),
                    Contains("t.xml:3:5: <gpu> attribute sm=\"x9\" is not an integer"));
  CHECK_THROWS_WITH(readNcclTopologyDump("<system><cpu><gpu dev=\"0\"/></cpu></system>", "t.xml"),
                    Contains("t.xml:1:14: <gpu> needs attribute 'sm'"));
  CHECK_THROWS_WITH(readNcclTopologyDump("<algo/>", "t.xml"), Contains("t.xml:1:1: not an NCCL topology dump"));
  CHECK_THROWS_WITH(
      readNcclTopologyDump(
          "<system><cpu><gpu dev=\"0\" sm=\"90\"><nvlink target=\"a\" count=\"2\" tclass=\"0x010000\"/>", "t.xml"),
      Contains("t.xml:1:35: <nvlink> tclass=\"0x010000\""));
  CHECK_THROWS_WITH(readNvidiaSmiTopology("hello\n", "s.txt"), Contains("s.txt:1:1: not `nvidia-smi topo -m` output"));
  CHECK_THROWS_WITH(readNvidiaSmiTopology("\tGPU0\tGPU1\nGPU0\t X \tNVX\nGPU1\tNV1\t X \n", "s.txt"),
                    Contains("s.txt:2:10: unknown cell 'NVX'"));
}

TEST_CASE("import: impossible requests are invalid arguments") {
  std::vector<ImportedBox> smi{readMachineFile(kDumps + "smi-2x3090-pcie-club3090-178.txt")};
  ImportOptions o;
  o.boxes = 2;
  CHECK_THROWS_WITH(buildImportedSpec(smi, o), Contains("no NIC with a speed"));
  std::vector<ImportedBox> dump{readMachineFile(kDumps + "synthetic-dgx1-v100.xml")};
  o.sm = 75;  // no NVLink generation in the table
  o.boxes = 1;
  CHECK_THROWS_WITH(buildImportedSpec(dump, o), Contains("--nvlink-gbps"));
  o.boxes = 0;
  CHECK_THROWS_AS(buildImportedSpec(dump, o), std::invalid_argument);
}

TEST_CASE("import: NVLink bandwidth per link per direction by generation") {
  CHECK(nvlinkGeneration(70)->perLinkGBps == 25);
  CHECK(nvlinkGeneration(70)->linksPerGpu == 6);
  CHECK(nvlinkGeneration(80)->perLinkGBps == 25);
  CHECK(nvlinkGeneration(80)->linksPerGpu == 12);
  CHECK(nvlinkGeneration(90)->perLinkGBps == 25);
  CHECK(nvlinkGeneration(90)->linksPerGpu == 18);
  CHECK_FALSE(nvlinkGeneration(89));
}

namespace {

// Imports `text` as `readMachineFile` would, then builds and reads back the spec. Returns false
// for a refusal (InputError or invalid_argument); anything else escaping is a test failure.
bool importsCleanly(const std::string& text) {
  size_t first = text.find_first_not_of(" \t\r\n");
  try {
    ImportedBox box = first != std::string::npos && text[first] == '<' ? readNcclTopologyDump(text, "m.xml")
                                                                       : readNvidiaSmiTopology(text, "m.txt");
    ImportOptions o;
    o.sm = box.pairCountsFromMatrix ? std::optional<int32_t>(80) : std::nullopt;
    ImportResult r = buildImportedSpec({box}, o);
    (void)readTopology(r.specJson, "imported.json", {});
    return true;
  } catch (const base::InputError&) {
    return false;
  } catch (const std::invalid_argument&) {
    return false;
  }
}

std::string fixtureText(const std::string& name) {
  std::ifstream in(kDumps + name, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

TEST_CASE("import: every prefix and byte mutation of the fixtures imports or is refused, never crashes") {
  // The whole files import; cut anywhere before the end, XML dumps are refused (the root is open).
  for (const char* name : {"h100-ibm-cloud-gx3d.xml", "a100-pcie-2gpu-nccl-2397.xml", "synthetic-dgx1-v100.xml",
                           "smi-synthetic-dgx-a100.txt", "smi-2x3090-pcie-club3090-178.txt", "smi-dgx1-microway.txt"}) {
    const std::string text = fixtureText(name);
    INFO(name);
    REQUIRE(importsCleanly(text));
    const bool xml = text.find("<system") != std::string::npos;
    const size_t closing = xml ? text.rfind("</system>") : text.size();
    for (size_t cut = 0; cut < text.size(); cut += 13) {
      bool ok = importsCleanly(text.substr(0, cut));
      if (xml && cut < closing) CHECK_FALSE(ok);
    }
    // Deterministic single-byte mutations (a fixed linear congruential sequence).
    uint64_t state = 12345;
    const std::string alphabet = "<>/=\" 0123456789abcdefxX-:.\n\tNVGPUIC";
    for (int i = 0; i < 400; ++i) {
      std::string mutated = text;
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      size_t at = static_cast<size_t>(state >> 33) % mutated.size();
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      mutated[at] = alphabet[static_cast<size_t>(state >> 33) % alphabet.size()];
      (void)importsCleanly(mutated);
    }
  }
}

TEST_CASE("import: uneven NVSwitch counts are merged with a note") {
  // GPU 0: 10 + 8 links to two switches; GPU 1: 18 to one of them.
  ImportedBox b = readNcclTopologyDump(
      "<system><cpu>"
      "<pci busid=\"a\"><gpu dev=\"0\" sm=\"90\"><nvlink target=\"s1\" count=\"10\" tclass=\"0x068000\"/>"
      "<nvlink target=\"s2\" count=\"8\" tclass=\"0x068000\"/></gpu></pci>"
      "<pci busid=\"b\"><gpu dev=\"1\" sm=\"90\"><nvlink target=\"s1\" count=\"18\" tclass=\"0x068000\"/></gpu></pci>"
      "</cpu></system>",
      "uneven.xml");
  ImportResult r = buildImportedSpec({b}, {});
  CHECK_THAT(r.specJson, Contains("GPUs have different NVLink counts to the individual NVSwitches"));
  Topology t = readTopology(r.specJson, "i.json", {});
  CHECK(linkGBps(t, "gpu0", "nvswitch") == 450);
  CHECK(linkGBps(t, "gpu1", "nvswitch") == 450);
}

TEST_CASE("spec notes: an array of strings, ignored; anything else is a located error") {
  Topology t = readTopology(
      R"({"name": "n", "notes": ["assumed 16 GB/s"], "family": {"kind": "ring", "n": 2, "bw": 1}})", "n.json", {});
  CHECK(t.gpus().size() == 2);
  CHECK_THROWS_WITH(
      readTopology("{\"name\": \"n\",\n \"notes\": \"one\", \"family\": {\"kind\": \"ring\", \"n\": 2, \"bw\": 1}}",
                   "n.json", {}),
      Contains("n.json:2:11: /notes: notes must be an array of strings"));
  CHECK_THROWS_WITH(
      readTopology("{\"name\": \"n\", \"notes\": [1], \"family\": {\"kind\": \"ring\", \"n\": 2, \"bw\": 1}}", "n.json",
                   {}),
      Contains("/notes/0"));
}
