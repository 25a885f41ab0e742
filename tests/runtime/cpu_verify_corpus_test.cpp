// The CPU backend on the verifier's corpus (tests/fixtures/verify, verify-dirs, malformed): every
// file, with the outcome the runtime must produce stated here. Correct programs match the
// reference; programs the verifier flags either still compute the right result here (executor
// limits this runtime does not have), or fail visibly: refused at load, wrong result, deadlock.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>

#include "runtime/execution_error.hpp"
#include "test_support.hpp"

using namespace ccforge;
using namespace ccforge::runtime;
using namespace ccforge::runtime::test;

namespace {

namespace fs = std::filesystem;

enum class Outcome {
  Matches,      // runs; every output element matches the reference
  Finishes,     // runs to the end; the result depends on timing (a race)
  WrongResult,  // runs; the check finds wrong elements
  Deadlock,     // the watchdog reports a deadlock
  TimedOut,     // the watchdog's time limit stopped it
  Rejected,     // refused at load as unsafe (ProgramRejected)
  Unsupported,  // refused at load: a collective the runtime cannot check
  Unreadable,   // InputError from the reader
  NoCallForm,   // no call can select it
};

// Executor limits (channels, cnt, steps, chunk counts, co-residency) that this runtime does not
// share: the programs are semantically right and run correctly here. Dependencies, nops and fused
// reductions mean what the executor's parser makes of them (semantics/loaded_program.hpp).
const std::map<std::string, Outcome> kExpected = {
    // Writes i out of place: the caller's sendbuff, const for NCCL; this runtime's test calls
    // give it a writable buffer and check the outputs only, which are right.
    {"buffers/sendbuf_written_out_of_place.xml", Outcome::Matches},
    {"buffers/sendbuf_written_in_place_only.xml", Outcome::Matches},
    // A non-root rank of a reduce touches o, which NCCL lets it pass as NULL; this runtime's test
    // calls give every rank an output buffer.
    {"buffers/reduce_nonroot_writes_output.xml", Outcome::Matches},
    {"buffers/reduce_nonroot_output_as_scratch.xml", Outcome::Matches},
    {"connections/cnt_mismatch.xml", Outcome::WrongResult},
    {"connections/count_mismatch.xml", Outcome::WrongResult},
    {"connections/two_senders_one_channel.xml", Outcome::Rejected},
    {"connections/unmatched_send.xml", Outcome::WrongResult},
    {"custom/alltonext_forwards_wrong_buffer.xml", Outcome::Unsupported},
    {"custom/alltonext_n3.xml", Outcome::Unsupported},
    {"custom/alltonext_without_collective.xml", Outcome::Unsupported},
    {"custom/swap_against_identity_spec.xml", Outcome::Unsupported},
    {"custom/swap_with_spec.xml", Outcome::Unsupported},
    {"deadlock/allreduce_pairs_one_slot.xml", Outcome::Matches},  // deadlocks with 1 slot: see below
    {"deadlock/dependency_cycle.xml", Outcome::Deadlock},
    // Suppression comments change the report, not the program.
    {"suppressions/every_finding_suppressed.xml", Outcome::Deadlock},
    {"suppressions/one_of_two_rules_suppressed.xml", Outcome::Deadlock},
    {"suppressions/unknown_rule.xml", Outcome::Matches},
    {"deadlock/receive_before_send.xml", Outcome::Deadlock},
    // Issue 32: deadlock only when a chunk fills a tile (maxAllowedCount 1); this call's chunks
    // are small. The windows from 2^63 - 8 bytes admit no call this harness makes.
    {"deadlock/window_maxbytes_2p40.xml", Outcome::Matches},
    {"deadlock/window_maxbytes_2p63_minus_1.xml", Outcome::Matches},
    {"deadlock/window_maxbytes_2p63_minus_2.xml", Outcome::Matches},
    {"deadlock/window_minbytes_near_2p63.xml", Outcome::NoCallForm},
    {"deadlock/window_minbytes_near_2p63_bounded.xml", Outcome::NoCallForm},
    // maxBytes/minBytes 2^64 - 1 read as 2^63 - 1 (strtoll saturates): the first admits this call,
    // the second only calls of 2^63 - 1 bytes.
    {"deadlock/window_maxbytes_2p64_minus_1.xml", Outcome::Matches},
    {"deadlock/window_bytes_2p64_minus_1_both.xml", Outcome::NoCallForm},
    {"differential/flag_wait_then_full_fifo.xml", Outcome::Deadlock},
    {"differential/gpu_elements_out_of_order.xml", Outcome::Matches},
    {"differential/reduce_chain_after_hasdep.xml", Outcome::Matches},  // fused across hasdep=1, half of it is wrong
    {"format/coll_reduce_scatter_executor.xml", Outcome::Matches},
    {"format/custom_under_executor.xml", Outcome::Unsupported},
    {"format/executor_header_missing.xml", Outcome::Matches},
    {"format/single_quotes.xml", Outcome::Matches},
    {"format/xml_declaration.xml", Outcome::Matches},
    {"limits/allgather_chunks_not_multiple.xml", Outcome::Rejected},
    {"limits/bounds.xml", Outcome::Rejected},
    {"limits/chan_beyond_nchannels.xml", Outcome::Matches},
    {"limits/chunk_counts_legacy.xml", Outcome::Matches},
    {"limits/cnt_72.xml", Outcome::Matches},
    {"limits/offset_beyond_declared_chunks.xml", Outcome::Matches},
    {"connections/declared_peer_without_partner.xml", Outcome::Matches},
    {"limits/co_residency.xml", Outcome::Matches},
    {"limits/dependency_out_of_range.xml", Outcome::Rejected},
    {"limits/dependency_without_step.xml", Outcome::Rejected},
    {"limits/fused_reduce_cnt_mismatch.xml", Outcome::Matches},  // the mis-fused chain only touches scratch
    // Beyond the kernel's source array: refused, as the verifier reports it.
    {"limits/fused_reduce_18_sources_ll.xml", Outcome::Rejected},
    {"limits/hasdep_later_step.xml", Outcome::Matches},
    {"limits/hasdep_never_published.xml", Outcome::Deadlock},
    {"limits/nchannels_33.xml", Outcome::Matches},
    {"limits/nchannels_int32_min.xml", Outcome::Matches},  // channels are the executor's; this runtime has connections
    {"limits/no_call_form.xml", Outcome::NoCallForm},
    {"limits/nop_closer_without_dependency.xml", Outcome::Rejected},  // the executor's parser refuses it too
    {"limits/nop_last.xml", Outcome::Matches},
    {"limits/nop_without_dependency.xml", Outcome::Matches},
    {"limits/send_without_peer.xml", Outcome::Rejected},
    {"limits/size_window.xml", Outcome::NoCallForm},  // minBytes > maxBytes: no size selects it
    {"limits/step_numbering.xml", Outcome::Matches},
    {"limits/steps_per_tb_65.xml", Outcome::Matches},
    {"postcondition/misrouted_send.xml", Outcome::WrongResult},
    {"postcondition/never_written.xml", Outcome::WrongResult},
    {"postcondition/reduced_twice.xml", Outcome::WrongResult},
    // The misspelt step is skipped here too: rank 0 never receives chunk 1's sum.
    {"postcondition/misspelt_step_skipped.xml", Outcome::WrongResult},
    {"races/in_place_alias.xml", Outcome::Finishes},
    {"races/unordered_without_round_trip.xml", Outcome::Finishes},
    {"races/write_read_unordered.xml", Outcome::Finishes},
    {"races/write_write_unordered.xml", Outcome::Finishes},
    // This runtime copies a step's elements in order; the shifted copy only touches scratch.
    {"races/copy_onto_itself_shifted.xml", Outcome::Matches},
    // The executor's XML lexer and its int8/int16 fields and flag encoding: this runtime reads with
    // expat into int32 fields and counts tile iterations without a limit.
    {"format/byte_order_mark.xml", Outcome::Matches},
    {"format/number_spellings.xml", Outcome::Matches},
    {"format/unknown_element_skipped.xml", Outcome::Matches},
    {"format/negative_depid_read_as_none.xml", Outcome::Matches},  // depid=-2 is no dependency here too
    {"format/character_reference_between_tags.xml", Outcome::Matches},
    {"format/comment_equals.xml", Outcome::Matches},
    {"format/end_tag_space.xml", Outcome::Matches},
    {"format/tab_between_tags.xml", Outcome::Matches},
    {"limits/attribute_slots_16.xml", Outcome::Matches},
    {"limits/attribute_slots_17.xml", Outcome::Matches},
    {"limits/chan_31_of_32.xml", Outcome::Matches},
    {"limits/chan_32.xml", Outcome::Matches},
    {"limits/comment_word_250.xml", Outcome::Matches},
    {"limits/comment_word_251.xml", Outcome::Matches},
    {"limits/depid_127.xml", Outcome::Matches},
    {"limits/depid_128.xml", Outcome::Matches},
    {"limits/offset_32767.xml", Outcome::Matches},
    {"limits/offset_32768.xml", Outcome::Matches},
    {"limits/offset_65536.xml", Outcome::Matches},
    {"limits/steps_per_tb_64.xml", Outcome::Matches},
    {"limits/tile_iterations_65536.xml", Outcome::Matches},
    {"limits/tile_iterations_65537.xml", Outcome::Matches},
    {"limits/tile_iterations_unbounded.xml", Outcome::Matches},
    {"limits/value_255_bytes.xml", Outcome::Matches},
    {"limits/value_256_bytes.xml", Outcome::Matches},
};

std::string nameUnder(const fs::path& p, const fs::path& base) { return fs::relative(p, base).generic_string(); }

Outcome outcomeOf(const fs::path& file, int32_t slots = 0) {
  std::optional<ExecutableProgram> p;
  try {
    p.emplace(loadFile(file.string()));
  } catch (const ProgramRejected& e) {
    return e.unsupported() ? Outcome::Unsupported : Outcome::Rejected;
  } catch (const base::InputError&) {
    return Outcome::Unreadable;
  }
  if (!p->serves(semantics::CallForm::OutOfPlace) && !p->serves(semantics::CallForm::InPlace))
    return Outcome::NoCallForm;
  CallShape call = callFor(*p, countForChunk(*p, 96), DataType::I32, ReduceOp::Sum);
  call.form =
      p->serves(semantics::CallForm::OutOfPlace) ? semantics::CallForm::OutOfPlace : semantics::CallForm::InPlace;
  if (!mismatch(*p, call).empty()) return Outcome::NoCallForm;
  TargetOptions options;
  options.tuning.slots = slots;
  options.timeout = std::chrono::seconds(20);
  try {
    const Measurement m = runOnCpu(*p, call, options);
    return m.check.passed() ? Outcome::Matches : Outcome::WrongResult;
  } catch (const ExecutionFailed& e) {
    return e.kind() == ExecutionFailed::Kind::Deadlock ? Outcome::Deadlock : Outcome::TimedOut;
  }
}

}  // namespace

TEST_CASE("CPU: every file of the verifier's corpus has the stated outcome") {
  const fs::path base = corpusDir() + "/verify";
  size_t seen = 0;
  for (const auto& e : fs::recursive_directory_iterator(base)) {
    if (!e.is_regular_file() || e.path().extension() != ".xml") continue;
    const std::string name = nameUnder(e.path(), base);
    // Fused programs need their operands, which this harness does not pass; cpu_fused_test.cpp
    // runs them against their own reference.
    if (name.starts_with("fused/")) continue;
    const bool good = name.starts_with("good/");
    INFO(name);
    REQUIRE((good || kExpected.count(name) == 1));  // a new fixture needs its expectation here
    const Outcome want = good ? Outcome::Matches : kExpected.at(name);
    const Outcome got = outcomeOf(e.path());
    if (want == Outcome::Finishes)
      CHECK((got == Outcome::Matches || got == Outcome::WrongResult));
    else
      CHECK(static_cast<int>(got) == static_cast<int>(want));
    ++seen;
  }
  CHECK(seen >= kExpected.size());
}

TEST_CASE("CPU: the pairs allreduce that needs two slots deadlocks with one, as the verifier states") {
  const fs::path file = corpusDir() + "/verify/deadlock/allreduce_pairs_one_slot.xml";
  CHECK(static_cast<int>(outcomeOf(file, 1)) == static_cast<int>(Outcome::Deadlock));
  CHECK(static_cast<int>(outcomeOf(file, 2)) == static_cast<int>(Outcome::Matches));
}

TEST_CASE("CPU: malformed files are refused by the reader") {
  for (const auto& e : fs::directory_iterator(corpusDir() + "/malformed")) {
    INFO(e.path().string());
    CHECK(static_cast<int>(outcomeOf(e.path())) == static_cast<int>(Outcome::Unreadable));
  }
}

TEST_CASE("CPU: program directories select by size window, the first file winning overlaps") {
  auto load = [](const std::string& dir) {
    ProgramSet set;
    for (const auto& e : fs::directory_iterator(corpusDir() + "/verify-dirs/" + dir))
      set.add(loadFile(e.path().string()));
    return set;
  };
  struct Case {
    const char* dir;
    int64_t count;       // f32 elements of an in-place allreduce over 2 ranks
    const char* chosen;  // file name the selection must pick
  };
  for (const Case& c : {Case{"disjoint_windows", 1024, "a_small.xml"}, Case{"disjoint_windows", 262146, "b_large.xml"},
                        Case{"overlapping_windows", 262144, "a_upto_2m.xml"},
                        Case{"overlapping_windows", 524290, "b_from_1m.xml"}, Case{"shadowed", 2048, "a_pairs.xml"}}) {
    INFO(c.dir << " count " << c.count);
    Runtime runtime(load(c.dir), makeCpuTarget({}));
    CallShape call;
    call.ranks = 2;
    call.count = c.count;
    call.form = semantics::CallForm::InPlace;
    MeasureOptions m;
    m.iterations = 0;
    const Measurement r = measure(runtime, call, m);
    REQUIRE(r.result.program);
    CHECK(fs::path(r.result.program->source()).filename() == c.chosen);
    CHECK(r.check.passed());
  }
}
