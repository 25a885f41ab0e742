#include "calibrate/fit.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "base/input_error.hpp"
#include "ir/names.hpp"
#include "sim/model_parameters.hpp"
#include "sim/nccl_model.hpp"

namespace ccforge::calibrate {
namespace {

constexpr uint64_t kKiB = 1024, kMiB = kKiB * 1024;
// Coordinate descent: a grid over each parameter's range, then grids narrowing around the best.
constexpr int kGridPoints = 41;
constexpr double kTolerance = 0.05;  // ln 1.05
constexpr double kExcessWeight = 50;
constexpr int kSweeps = 6;
// Then sweeps that also weigh what lies beyond kBandTolerance kBandWeight times, from where the
// first ones ended: the band users hold a calibrated model to (0.9-1.1x), kept where the logs allow
// it without the first sweeps' search starting from a stiffer objective that traps it.
constexpr double kBandTolerance = 0.08;  // ln 1.083
constexpr double kBandWeight = 2000;
constexpr int kBandSweeps = 12;
// Each parameter's distance from its uncalibrated value (|ln|, linear ones in their unit) costs
// this much, squared: where the logs cannot tell two parameters apart (an allreduce log moving
// the network's efficiency or the NVLS latency alike), the fit keeps the one it need not move,
// so that what it learns from one collective does not spoil the others.
constexpr double kPriorWeight = 0.02;
// A parameter the logs do not move by this much (|ln|, 2 %) stays as it was.
constexpr double kSensitivity = 0.02;

// One parameter the fit may move: its calibration member and the range it searches, log-spaced
// unless `linear` (a fraction).
struct Knob {
  std::string_view key;
  std::optional<double> topo::Calibration::*member;
  double sim::ModelParameters::*parameter;
  double lo, hi;
  bool linear = false;
};

const Knob kKnobs[] = {
    {"launch_us", &topo::Calibration::launchUs, &sim::ModelParameters::launchUs, 0.5, 2000},
    {"launch_per_gpu_us", &topo::Calibration::launchPerGpuUs, &sim::ModelParameters::launchPerGpuUs, 0.05, 500},
    {"launch_overlap", &topo::Calibration::launchOverlap, &sim::ModelParameters::launchOverlap, 0, 1, true},
    {"intra_latency_scale", &topo::Calibration::intraLatencyScale, &sim::ModelParameters::intraLatencyScale, 0.05, 20},
    {"inter_latency_scale", &topo::Calibration::interLatencyScale, &sim::ModelParameters::interLatencyScale, 0.05, 20},
    {"nvls_latency_scale", &topo::Calibration::nvlsLatencyScale, &sim::ModelParameters::nvlsLatencyScale, 0.05, 20},
    {"nvls_step_us", &topo::Calibration::nvlsStepUs, &sim::ModelParameters::nvlsStepUs, 0.05, 200},
    {"nvlink_efficiency", &topo::Calibration::nvlinkEfficiency, &sim::ModelParameters::nvlinkEfficiency, 0.05, 1.5},
    {"pcie_efficiency", &topo::Calibration::pcieEfficiency, &sim::ModelParameters::pcieEfficiency, 0.01, 1.5},
    {"network_efficiency", &topo::Calibration::networkEfficiency, &sim::ModelParameters::networkEfficiency, 0.01, 1.5},
    {"ll_bandwidth_scale", &topo::Calibration::llBandwidthScale, &sim::ModelParameters::llBandwidthScale, 0.05, 20},
    {"ll128_bandwidth_scale", &topo::Calibration::ll128BandwidthScale, &sim::ModelParameters::ll128BandwidthScale, 0.05,
     2},
    {"ll_choice_scale", &topo::Calibration::llChoiceScale, &sim::ModelParameters::llChoiceScale, 0.05, 20},
    {"ll128_choice_scale", &topo::Calibration::ll128ChoiceScale, &sim::ModelParameters::ll128ChoiceScale, 0.05, 20},
};

// The generation a device name of the "# Using devices" block says, as an sm; 0 when unknown.
int32_t smOfDevice(std::string_view model) {
  struct Name {
    std::string_view part;
    int32_t sm;
  };
  constexpr Name kNames[] = {{"B200", 100}, {"B100", 100}, {"GB200", 100}, {"H100", 90},  {"H200", 90}, {"H800", 90},
                             {"GH200", 90}, {"A100", 80},  {"A800", 80},   {"A30", 80},   {"V100", 70}, {"4090", 89},
                             {"L40", 89},   {"L4 ", 89},   {"3090", 86},   {"A6000", 86}, {"A40", 86},  {"A10 ", 86}};
  for (const Name& n : kNames)
    if (model.find(n.part) != std::string_view::npos) return n.sm;
  return 0;
}

double measuredUs(const LogRow& r) {
  double sum = 0;
  int n = 0;
  for (const LogCell* c : {&r.outOfPlace, &r.inPlace})
    if (c->timeUs && *c->timeUs > 0) {
      sum += *c->timeUs;
      ++n;
    }
  return n > 0 ? sum / n : 0;
}

// The logs' NCCL_* settings the model takes, then the ones given on the command line.
sim::NcclEnvironment environmentOf(const LogInput& log) {
  std::vector<std::string> settings;
  for (const auto& [name, value] : log.table.environment)
    if (name == "NCCL_ALGO" || name == "NCCL_PROTO" || name == "NCCL_MIN_NCHANNELS" || name == "NCCL_MAX_NCHANNELS" ||
        name == "NCCL_NVLS_ENABLE" || name == "NCCL_LAUNCH_MODE")
      settings.push_back(name + "=" + value);
  settings.insert(settings.end(), log.environment.begin(), log.environment.end());
  return sim::parseNcclEnvironment(settings);
}

struct Sample {
  size_t table;
  uint64_t bytes;
  double measuredUs;
};

class Fitter {
 public:
  Fitter(const topo::Topology& t, const std::vector<LogInput>& logs) : t_(t), logs_(logs) {
    base_ = sim::modelParameters(t);
    const sim::Arch arch = base_.arch;
    machine_ = sim::ncclMachineOf(t, arch);
    for (const LogInput& log : logs) environments_.push_back(environmentOf(log));
    for (size_t i = 0; i < logs.size(); ++i)
      for (const LogRow& r : logs[i].table.rows)
        if (const double us = measuredUs(r); us > 0 && r.bytes > 0) samples_.push_back({i, r.bytes, us});
    working_ = t.calibration.value_or(topo::Calibration{});
    start_ = parameters(working_);
  }

  FitResult run(bool fit) {
    FitResult out;
    const std::vector<double> before = predictions(parameters(working_));
    if (fit) decide(out);
    for (int sweep = 0; sweep < kSweeps + kBandSweeps && fit; ++sweep)
      for (const ParameterFit& p : out.parameters)
        if (p.determined) refine(*knobOf(p.key), sweep, sweep >= kSweeps);
    const std::vector<double> after = predictions(parameters(working_));
    for (ParameterFit& p : out.parameters) p.value = parameters(working_).*(knobOf(p.key)->parameter);
    auto regimeError = [&](uint64_t bytes) -> double& {
      return bytes < kMiB ? out.errorSmall : bytes < 256 * kMiB ? out.errorMedium : out.errorLarge;
    };
    bool seen[3] = {false, false, false};
    for (size_t s = 0; s < samples_.size(); ++s) {
      const Sample& x = samples_[s];
      const sim::NcclChoice choice =
          sim::ncclChoice(setup(parameters(working_), x.table),
                          {logs_[x.table].table.collective, x.bytes, logs_[x.table].table.gpusPerThread});
      out.rows.push_back({x.table, x.bytes, x.measuredUs, before[s], after[s],
                          choice.algorithm + " " + std::string(ir::protocolName(choice.protocol))});
      double& e = regimeError(x.bytes);
      e = std::max(e, std::fabs(std::log(after[s] / x.measuredUs)));
      seen[x.bytes < kMiB ? 0 : x.bytes < 256 * kMiB ? 1 : 2] = true;
    }
    if (seen[0]) working_.errorSmall = out.errorSmall;
    if (seen[1]) working_.errorMedium = out.errorMedium;
    if (seen[2]) working_.errorLarge = out.errorLarge;
    for (const LogInput& log : logs_)
      if (std::find(working_.logs.begin(), working_.logs.end(), log.table.source) == working_.logs.end())
        working_.logs.push_back(log.table.source);
    out.calibration = working_;
    return out;
  }

 private:
  sim::ModelParameters parameters(const topo::Calibration& c) const { return sim::withCalibration(base_, c); }

  sim::NcclSetup setup(const sim::ModelParameters& p, size_t table) const {
    sim::NcclMachine m = machine_;
    sim::setAchievedRates(m, t_, p);
    return {m, p, environments_[table]};
  }

  std::vector<double> predictions(const sim::ModelParameters& p) const {
    std::vector<double> out;
    out.reserve(samples_.size());
    std::vector<std::optional<sim::NcclSetup>> setups(logs_.size());
    for (const Sample& x : samples_) {
      if (!setups[x.table]) setups[x.table] = setup(p, x.table);
      const NcclTestsTable& table = logs_[x.table].table;
      out.push_back(sim::ncclChoice(*setups[x.table], {table.collective, x.bytes, table.gpusPerThread}).timeUs);
    }
    return out;
  }

  // Least squares of ln(predicted / measured) over every row, plus, for the calls from 1 MiB
  // (where collectives spend their time, and tune's windows and plan's buckets mostly lie), what
  // lies beyond kTolerance weighted kExcessWeight times: a fit that leaves a few such rows far
  // off to gain a little on many small ones is not the one users need.
  double objective(const topo::Calibration& c, bool band) const {
    const sim::ModelParameters fitted = parameters(c);
    const std::vector<double> p = predictions(fitted);
    double sum = 0;
    for (const Knob& k : kKnobs) {
      const double from = start_.*(k.parameter), to = fitted.*(k.parameter);
      const double d = k.linear ? to - from : std::log(std::max(to, 1e-12) / std::max(from, 1e-12));
      sum += kPriorWeight * d * d;
    }
    for (size_t s = 0; s < samples_.size(); ++s) {
      const double r = std::log(p[s] / samples_[s].measuredUs);
      sum += r * r;
      if (samples_[s].bytes >= kMiB) {
        const double excess = std::max(0.0, std::fabs(r) - kTolerance);
        sum += kExcessWeight * excess * excess;
        const double outside = band ? std::max(0.0, std::fabs(r) - kBandTolerance) : 0;
        sum += kBandWeight * outside * outside;
      }
    }
    return sum;
  }

  static const Knob* knobOf(std::string_view key) {
    for (const Knob& k : kKnobs)
      if (k.key == key) return &k;
    return nullptr;
  }

  // Which parameters the logs determine: those whose halving or doubling moves some prediction
  // by more than kSensitivity (a log of large calls says nothing about the floor, one box nothing
  // about the network).
  void decide(FitResult& out) const {
    const sim::ModelParameters p = parameters(working_);
    const std::vector<double> base = predictions(p);
    for (const Knob& k : kKnobs) {
      ParameterFit f;
      f.key = std::string(k.key);
      f.before = f.value = p.*(k.parameter);
      double moved = 0;
      size_t sample = 0;
      for (double factor : {0.5, 2.0}) {
        topo::Calibration trial = working_;
        trial.*(k.member) =
            k.linear ? (factor < 1 ? k.lo : k.hi) : std::clamp(std::max(f.before, k.lo) * factor, k.lo, k.hi);
        const std::vector<double> changed = predictions(parameters(trial));
        for (size_t s = 0; s < base.size(); ++s)
          if (const double m = std::fabs(std::log(changed[s] / base[s])); m > moved) {
            moved = m;
            sample = s;
          }
      }
      f.determined = moved >= kSensitivity;
      f.why = f.determined ? fmt::format("moves the {} B row of {} by {:.0f}% when {}", samples_[sample].bytes,
                                         collectiveTypeName(logs_[samples_[sample].table].table.collective),
                                         100 * (std::exp(moved) - 1), k.linear ? "set to 0 or 1" : "halved or doubled")
                           : fmt::format("{} it moves no row by {:.0f}%",
                                         k.linear ? "setting it to 0 or 1" : "halving or doubling",
                                         100 * (std::exp(kSensitivity) - 1));
      out.parameters.push_back(f);
    }
  }

  // One coordinate: the best value on a log-spaced grid, the whole range first, then narrower
  // around the best (x 4, x 2, ... per sweep). Ties keep the current value.
  void refine(const Knob& k, int sweep, bool band) {
    const double current = parameters(working_).*(k.parameter);
    double lo = k.lo, hi = k.hi;
    if (sweep > 0 && k.linear) {
      const double span = (k.hi - k.lo) / std::pow(4.0, sweep);
      lo = std::max(k.lo, current - span);
      hi = std::min(k.hi, current + span);
    } else if (sweep > 0 && current > 0) {
      const double span = std::pow(4.0, 1.0 / sweep);
      lo = std::max(k.lo, current / span);
      hi = std::min(k.hi, current * span);
    }
    double best = objective(working_, band);
    std::optional<double> bestValue;
    for (int i = 0; i < kGridPoints; ++i) {
      const double t = static_cast<double>(i) / (kGridPoints - 1);
      const double v = k.linear ? lo + (hi - lo) * t : lo * std::pow(hi / lo, t);
      topo::Calibration trial = working_;
      trial.*(k.member) = v;
      const double o = objective(trial, band);
      if (o < best - 1e-12) {
        best = o;
        bestValue = v;
      }
    }
    if (bestValue) working_.*(k.member) = *bestValue;
  }

  const topo::Topology& t_;
  const std::vector<LogInput>& logs_;
  sim::ModelParameters base_;
  sim::ModelParameters start_;  // the parameters before the fit: the prior's centre
  sim::NcclMachine machine_;
  std::vector<sim::NcclEnvironment> environments_;
  std::vector<Sample> samples_;
  topo::Calibration working_;
};

}  // namespace

void checkAgainst(const NcclTestsTable& table, const topo::Topology& topology) {
  const auto gpus = static_cast<int32_t>(topology.gpus().size());
  const base::TextLocation where = table.devices.empty() ? table.where : table.devices.front().where;
  if (const std::optional<int32_t> ranks = table.ranks(); ranks && *ranks != gpus)
    throw base::InputError(
        table.source, where,
        fmt::format("the log ran on {} GPUs{} but topology {} has {}", *ranks,
                    table.devices.empty() ? " (its busbw / algbw factor)" : "", topology.name, gpus));
  if (!table.devices.empty() && table.hosts() != std::max(topology.boxCount(), 1))
    throw base::InputError(table.source, where,
                           fmt::format("the log's GPUs are on {} hosts but topology {} has {} boxes", table.hosts(),
                                       topology.name, std::max(topology.boxCount(), 1)));
  for (const LogDevice& d : table.devices) {
    const int32_t sm = smOfDevice(d.model);
    if (sm > 0 && topology.sm > 0 && sim::archOf(topology) != sim::archOfSm(sm))
      throw base::InputError(table.source, d.where,
                             fmt::format("rank {} is a {} (sm {}), but topology {} says sm {}", d.rank, d.model, sm,
                                         topology.name, topology.sm));
  }
  if (std::none_of(table.rows.begin(), table.rows.end(), [](const LogRow& r) { return measuredUs(r) > 0; }))
    throw base::InputError(table.source, table.where, "the table has no row with a time");
}

FitResult fitCalibration(const topo::Topology& topology, const std::vector<LogInput>& logs) {
  return Fitter(topology, logs).run(true);
}

FitResult compareWithLogs(const topo::Topology& topology, const std::vector<LogInput>& logs) {
  return Fitter(topology, logs).run(false);
}

}  // namespace ccforge::calibrate
