#include "sim/nccl_tables.hpp"

namespace ccforge::sim::nccl {
namespace {

// src/graph/tuning.cc at 5067397c. baseLatencies (l.150-155): Tree, Ring, CollNetDirect,
// CollNetChain, NVLS, NVLSTree, PAT; the CollNet rows are left out.
constexpr double kBaseLatency[kAlgorithms][3] = {
    {6.8, 14.0, 8.4}, {6.6, 14.0, 8.4}, {0, 0, 0}, {0, 0, 0}, {8.0, 8.0, 8.0}};
// hwLatencies (l.157-176): [NVLink, PCI, NET][algorithm][LL, LL128, Simple].
constexpr double kHwLatency[3][kAlgorithms][3] = {
    {{0.6, 1.25, 4.0}, {0.6, 1.9, 3.4}, {0, 0, 25}, {0, 0, 25}, {0, 0, 4.0}},
    {{1.0, 1.9, 4.0}, {1.0, 2.5, 5.7}, {0, 0, 0}, {0, 0, 0}, {0, 0, 4.0}},
    {{5.0, 8.5, 14}, {2.7, 4.0, 14.0}, {0, 0, 18}, {0, 0, 20.9}, {0, 0, 14}},
};
// llMaxBws (l.178-183).
constexpr double kLlMaxBw[4][3] = {{39.0, 39.0, 20.4}, {87.7, 22.5, 19.0}, {141.0, 45.0, 35.0}, {282.0, 90.0, 70.0}};
// perChMaxRingLL128Bws (l.185-190), perChMaxTreeLL128Bws (l.192-197), perChMaxTreeBws (l.199-204),
// perChMaxNVLSTreeBws (l.206-211).
constexpr double kRingLL128[4][3] = {{20, 20, 20}, {20, 20, 20}, {36.7, 36.7, 36.7}, {40, 40, 40}};
constexpr double kTreeLL128[4][3] = {{20, 20, 20}, {20, 20, 20}, {36.7, 36.7, 29.0}, {55.6, 31.67, 20.0}};
constexpr double kTree[4][3] = {{26.5, 18.5, 10.0}, {24.0, 23.6, 17.8}, {38.7, 41.4, 36.0}, {70.0, 42.8, 24.0}};
constexpr double kNvlsTree[4][3] = {{26.5, 18.5, 10.0}, {24.0, 23.6, 17.8}, {0.0, 57.7, 45.5}, {0.0, 96.0, 80.0}};
// nvlsEfficiency (l.139-144).
constexpr double kNvlsEfficiency[4] = {0.0, 0.0, 0.85, 0.74};
// treeCorrectionFactor (l.623-627).
constexpr double kTreeCorrection[3][24] = {
    {1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1.0, 1.0, 1.0, 1.0, 1.0},
    {1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .6, .6, .6, .8, .9, .9, .9, .9, 1.0, 1.0, 1.0},
    {.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9, .9},
};

}  // namespace

std::string_view algorithmName(Algorithm a) {
  switch (a) {
    case Algorithm::Tree: return "Tree";
    case Algorithm::Ring: return "Ring";
    case Algorithm::Nvls: return "NVLS";
    case Algorithm::NvlsTree: return "NVLSTree";
    case Algorithm::Pat: return "PAT";
  }
  return "?";
}

size_t protocolColumn(ir::Protocol p) {
  switch (p) {
    case ir::Protocol::LL: return 0;
    case ir::Protocol::LL128: return 1;
    case ir::Protocol::Simple: return 2;
  }
  return 2;
}

size_t linkColumn(topo::LinkClass c) {
  switch (c) {
    case topo::LinkClass::NVLink: return 0;
    case topo::LinkClass::PCIe: return 1;
    case topo::LinkClass::Network: return 2;
  }
  return 0;
}

size_t generationIndex(Arch a) {
  switch (a) {
    case Arch::Sm70: return 0;
    case Arch::Sm90: return 2;
    case Arch::Sm100: return 3;
    default: return 1;
  }
}

double baseLatency(Algorithm a, size_t protocol) { return kBaseLatency[static_cast<size_t>(a)][protocol]; }
double hwLatency(size_t link, Algorithm a, size_t protocol) {
  return kHwLatency[link][static_cast<size_t>(a)][protocol];
}
double llMaxBw(size_t index1, size_t index2) { return kLlMaxBw[index1][index2]; }
double perChMaxRingLL128Bw(size_t generation, size_t index2) { return kRingLL128[generation][index2]; }
double perChMaxTreeLL128Bw(size_t generation, size_t index2) { return kTreeLL128[generation][index2]; }
double perChMaxTreeBw(size_t generation, size_t index2) { return kTree[generation][index2]; }
double perChMaxNvlsTreeBw(size_t generation, size_t index2) { return kNvlsTree[generation][index2]; }
double nvlsEfficiency(size_t generation) { return kNvlsEfficiency[generation]; }
double treeCorrection(size_t protocol, int logSize) { return kTreeCorrection[protocol][logSize]; }

// src/transport/nvls.cc l.155-157, 210-214 (ncclNvlsTuning defaults).
int nvlsChannels(Arch a, int nodes) {
  if (a == Arch::Sm100) return nodes > 1 ? 32 : 24;
  return 16;
}

// src/graph/topo.h l.19-24 (SM70_NVLINK_BW ... SM100_NVLINK_BW).
double nvlinkGBps(Arch a) {
  switch (a) {
    case Arch::Sm90: return 20.6;
    case Arch::Sm100: return 40.1;
    default: return 20.0;
  }
}

double nvlinkSignallingGBps(Arch a) { return a == Arch::Sm100 ? 50 : 25; }

// src/graph/search.cc l.1051-1067: speedArrayIntra/Inter, sm90SpeedArray*, sm100SpeedArray*.
const std::vector<double>& intraSpeeds(Arch a) {
  static const std::vector<double> base{40, 30, 20, 18, 15, 12, 10, 9, 7, 6, 5, 4, 3};
  static const std::vector<double> sm90{60, 50, 40, 30, 24, 20, 15, 12, 11, 6, 3};
  static const std::vector<double> sm100{90, 80, 70, 60, 50, 45, 40, 30, 24, 20, 19, 18};
  return a == Arch::Sm100 ? sm100 : a == Arch::Sm90 ? sm90 : base;
}

const std::vector<double>& interSpeeds(Arch a) {
  static const std::vector<double> base{48, 30, 28, 24, 20, 18, 15, 12, 10, 9, 7, 6, 5, 4, 3, 2.4, 1.2, 0.24, 0.12};
  static const std::vector<double> sm90{48, 45, 42, 40, 30, 24, 22, 20, 17.5, 15, 12, 6, 3, 2.4, 1.2, 0.24, 0.12};
  static const std::vector<double> sm100{96, 86,   80, 48, 45.1, 42, 40,  30,  24,   22,
                                         20, 17.5, 15, 12, 6,    3,  2.4, 1.2, 0.24, 0.12};
  return a == Arch::Sm100 ? sm100 : a == Arch::Sm90 ? sm90 : base;
}

}  // namespace ccforge::sim::nccl
