// `ccforge select DIR --collective C --bytes N --dtype T --inplace|--outofplace`: which file of an
// algorithm directory a call runs under each executor selector (docs/verify.md "Which file runs a call").
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/option_checks.hpp"
#include "cli/exit_codes.hpp"
#include "base/input_error.hpp"
#include "ir/names.hpp"
#include "verify/select_call.hpp"

namespace ccforge::cli {
namespace {

struct SelectArguments {
  std::string directory;
  std::string collective;
  std::optional<uint64_t> bytes;
  std::optional<uint64_t> count;
  std::string dtype;
  bool inplace = false;
  bool outofplace = false;
  std::optional<int32_t> root;
  std::optional<int32_t> ranks;
  std::string scheduler = "both";
};

int runSelect(const SelectArguments& args) {
  try {
    verify::SelectRequest request;
    const std::optional<ir::CollectiveKind> coll = ir::parseCollectiveKind(args.collective);
    if (!coll)
      throw std::invalid_argument("--collective " + args.collective + ": not a collective the runtimes select");
    request.coll = *coll;
    request.type = semantics::findNcclDataType(args.dtype);
    if (!request.type) throw std::invalid_argument("--dtype " + args.dtype + ": not one of NCCL's data types");
    if (args.inplace == args.outofplace) throw std::invalid_argument("give one of --inplace and --outofplace");
    request.form = args.inplace ? semantics::CallForm::InPlace : semantics::CallForm::OutOfPlace;
    request.bytes = args.bytes;
    request.count = args.count;
    request.root = args.root;
    request.ranks = args.ranks;
    std::vector<semantics::Selector> selectors;
    if (args.scheduler == "rccl") selectors.push_back(semantics::Selector::Rccl);
    if (args.scheduler == "both" || args.scheduler == "executor") selectors.push_back(semantics::Selector::Internal);
    if (args.scheduler == "both" || args.scheduler == "plugin") selectors.push_back(semantics::Selector::External);
    const std::vector<verify::SelectorAnswer> answers = verify::selectCall(args.directory, request, selectors);
    verify::writeSelectAnswers(std::cout, request, answers);
    return verify::allDetermined(answers) ? kExitVerified : kExitViolation;
  } catch (const base::InputError& e) {
    std::cerr << e.diagnostic() << "\n";
    return kExitMalformedInput;
  } catch (const std::invalid_argument& e) {
    std::cerr << "ccforge select: " << e.what() << "\n";
    return kExitUsage;
  }
}

}  // namespace

void registerSelectCommand(CLI::App& app, CommandContext& context) {
  auto args = std::make_shared<SelectArguments>();
  CLI::App* cmd = app.add_subcommand(
      "select",
      "Which file of an algorithm directory one NCCL call runs (or NCCL) under the executor's internal scheduler and "
      "the msccl-scheduler plugin, rank by rank, and why no other file takes it (exit 0 every rank runs the same "
      "file or NCCL, 10 the ranks disagree or readdir order decides, 2 unreadable directory or file, 1 usage)");
  cmd->add_option("directory", args->directory, "algorithm directory (MSCCL_ALGO_DIR)")->required();
  cmd->add_option("--collective", args->collective, "the call: allreduce, allgather, reducescatter, broadcast, ...")
      ->required();
  cmd->add_option("--bytes", args->bytes,
                  "the size the selectors compare with minBytes/maxBytes: count x element size (x ranks for "
                  "allgather, reducescatter and alltoall); 8, 1K, 64MB, 2GiB")
      ->transform(byteSize());
  cmd->add_option("--count", args->count, "the call's count argument, instead of --bytes");
  cmd->add_option("--dtype", args->dtype,
                  "NCCL data type: int8, uint8, int32, uint32, int64, uint64, float16, float32, float64, bfloat16, "
                  "fp8e4m3, fp8e5m2")
      ->required();
  cmd->add_flag("--inplace", args->inplace, "an in-place call (every rank)");
  cmd->add_flag("--outofplace", args->outofplace, "an out-of-place call (every rank)");
  cmd->add_option("--root", args->root, "the root of a broadcast or reduce (neither selector compares it)");
  cmd->add_option("--ranks", args->ranks, "the communicator's rank count (default: each of the directory's files')");
  cmd->add_option("--scheduler", args->scheduler,
                  "executor, plugin, both (default: the executor's two) or rccl (RCCL's internal scheduler)")
      ->check(CLI::IsMember({"executor", "plugin", "both", "rccl"}));
  cmd->callback([args, &context] { context.exitCode = runSelect(*args); });
}

}  // namespace ccforge::cli
