set(SAMPLES ${FIXTURES}/msccl-tools)
set(VF ${FIXTURES}/verify)

ccforge_cli_test("verify: a correct program exits 0" 0
  --has "verdict: VERIFIED" --has "deadlock +passed"
  -- verify ${VF}/good/allreduce_pairs_n2.xml)
ccforge_cli_test("verify: a violation exits 10 with a located message" 10
  --has "write_read_unordered.xml:[0-9]+:[0-9]+: error: out-of-place: rank 0 s\\[0\\].* \\[race.write-read\\]$"
  -- verify ${VF}/races/write_read_unordered.xml)
ccforge_cli_test("verify: an out-of-place program that writes the caller's send buffer exits 10" 10
  --has "buffers +failed"
  --has "sendbuf_written_out_of_place.xml:13:7: error: rank 0 tb 0 step 1: 'rrc' writes i.0[.][.]1[)].* .buffers.sendbuf-written.$"
  --has "2 steps of the file write i"
  -- verify ${VF}/buffers/sendbuf_written_out_of_place.xml)
ccforge_cli_test("verify: legacy files under the executor profile name the missing attributes" 10
  --has "missing attribute 'outofplace' on <algo>: msccl-executor requires it"
  -- verify --profile msccl-executor ${SAMPLES}/valid/allreduce_ring_a100_n4_ch1_i1_LL128.xml)
# Without --profile, each file is checked against the runtime its header is written for, and the
# report says which (docs/verify.md, "Options").
ccforge_cli_test("verify: without --profile a legacy header means msccl-legacy, and the report says so" 0
  --has "note: profile msccl-legacy from the header \\(a legacy header" --has "verdict: VERIFIED"
  -- verify ${SAMPLES}/valid/allreduce_ring_a100_n4_ch1_i1_LL128.xml)
ccforge_cli_test("verify: without --profile files of both header styles are each checked against their own" 0
  --has "note: profile msccl-executor from the header \\(an executor header"
  --has "note: profile msccl-legacy from the header" --has "2 of 2 files verified \\(mixed profile\\)"
  -- verify ${VF}/good/allreduce_pairs_n2.xml ${SAMPLES}/valid/allreduce_ring_a100_n4_ch1_i1_LL128.xml)
ccforge_cli_test("verify: the JSON report names each file's profile" 0
  --has "\"profile\": \"msccl-legacy\"" --lacks "msccl-executor"
  -- verify --format json ${SAMPLES}/valid/allreduce_ring_a100_n4_ch1_i1_LL128.xml)
set(VERIFY_OUT ${CMAKE_CURRENT_BINARY_DIR}/verify-out)
file(MAKE_DIRECTORY ${VERIFY_OUT})
add_test(NAME "cli: verify: an incomplete executor header is checked against msccl-executor, which names what is missing"
  COMMAND ${CCFORGE_EXPECT} 10 --has "missing attribute 'maxBytes' on <algo>: msccl-executor requires it"
          --has "profile msccl-executor from the header"
  -- sh -c "sed 's/ maxBytes=\"0\"//' ${VF}/good/allreduce_pairs_n2.xml > ${VERIFY_OUT}/no_max_bytes.xml && $<TARGET_FILE:ccforge> verify ${VERIFY_OUT}/no_max_bytes.xml")
ccforge_cli_test("verify: legacy files under the legacy profile" 0
  --has "6 of 6 files verified"
  -- verify --profile msccl-legacy ${SAMPLES}/valid/allreduce_ring_a100_n4_ch1_i1_LL128.xml
     ${SAMPLES}/valid/allreduce_hierarchical_2nodes_x3gpus_i1_auto.xml ${SAMPLES}/valid/alltoall_two_step_2nodes_x4gpus.xml
     ${SAMPLES}/valid/allgather_ring_simple_oop_n4.xml ${SAMPLES}/valid/azure_allreduce_ring_a100_n8_ch4_i1_LL128.xml
     ${SAMPLES}/valid/sccl_allgather_dgx1_pareto_s2_r3_c2.xml)
ccforge_cli_test("verify: --slots 1 deadlocks the LL128 ring" 10
  --has ": error: .*\\[deadlock.cycle\\]$" --has "slots=1"
  -- verify --profile msccl-legacy --slots 1 ${SAMPLES}/valid/allreduce_ring_a100_n4_ch1_i1_LL128.xml)
ccforge_cli_test("verify: with the box layout unknown, back-pressure over a connection orders no data" 10
  --has "boxes: unknown. 3 of 3 connections cross boxes or may" --has "\\[race.read-write\\]$"
  -- verify ${VF}/good/read_ordered_by_back_pressure_in_box.xml)
ccforge_cli_test("verify: --topology puts both ranks in one box, where back-pressure orders the read" 0
  --has "verdict: VERIFIED" --lacks "boxes:"
  -- verify --topology dgx1 ${VF}/good/read_ordered_by_back_pressure_in_box.xml)
ccforge_cli_test("verify: --gpus-per-box 1 puts the ranks in two boxes" 10
  --has "boxes: 1 GPU per box. 3 of 3 connections cross boxes:" --has "\\[race.read-write\\]$"
  -- verify --gpus-per-box 1 ${VF}/good/read_ordered_by_back_pressure_in_box.xml)
ccforge_cli_test("verify: --gpus-per-box and --topology exclude each other" 1
  --has "excludes"
  -- verify --gpus-per-box 2 --topology dgx1 ${VF}/good/read_ordered_by_back_pressure_in_box.xml)
ccforge_cli_test("verify: unreadable input exits 2 and other files are still checked" 2
  --has "no such file" --has "verdict: VERIFIED"
  -- verify /nonexistent.xml ${VF}/good/allreduce_pairs_n2.xml)
ccforge_cli_test("verify: malformed XML exits 2 with line and column" 2
  --has "truncated.xml:[0-9]+:[0-9]+: error: malformed XML.* \\[input.malformed\\]$"
  -- verify ${FIXTURES}/malformed/truncated.xml)
ccforge_cli_test("verify: a usage error exits 1" 1
  --has "--profile"
  -- verify --profile nccl ${VF}/good/allreduce_pairs_n2.xml)
ccforge_cli_test("verify: no arguments is a usage error" 1
  -- verify)
ccforge_cli_test("verify: a directory is checked for ambiguous selection" 10
  --has ": error: .*\\[selection.shadowed\\]$" --has "1 of 2 files verified"
  -- verify ${FIXTURES}/verify-dirs/shadowed)
ccforge_cli_test("verify: a file of 48 chunks per loop is not dead (count 48 is a call) but shadowed by an earlier one" 10
  --has "b_chunks48.xml:1:1: error: .*e.g. an in-place call of count 48 with a 4-byte type \\(192 bytes\\).* \\[selection.shadowed\\]$"
  --lacks "selection.dead"
  --has "selection internal \\(path order, 1 of 2\\): accepts and runs in-place from count 2 to 256 GiB"
  -- verify ${FIXTURES}/verify-dirs/dead_48_chunks)
ccforge_cli_test("verify: a stray file in a directory" 10
  --has "README.md:1:1: error: not an algorithm file.* \\[selection.stray-file\\]$"
  -- verify ${FIXTURES}/verify-dirs/stray_file)
ccforge_cli_test("verify: JSON report" 10
  --has "\"verdict\": \"violation\"" --has "\"rule\": \"deadlock.cycle\"" --has "\"exit_code\": 10"
  -- verify --format json ${VF}/deadlock/receive_before_send.xml)
ccforge_cli_test("verify: SARIF report" 10
  --has "\"version\": \"2.1.0\"" --has "\"ruleId\": \"postcondition.wrong-chunk\"" --has "\"threadFlows\""
  -- verify --format sarif ${SAMPLES}/invalid/rrc_srcoff_probe_allreduce_n2.xml --profile msccl-legacy)
ccforge_cli_test("verify: custom collective from a spec file" 0
  --has "custom 'swap'"
  -- verify --profile msccl-legacy --collective ${VF}/specs/swap2.json ${VF}/custom/swap_with_spec.xml)
ccforge_cli_test("verify: an unreadable spec file exits 2" 2
  --has "missing.json:1:1: error: no such file"
  -- verify --profile msccl-legacy --collective ${VF}/specs/missing.json ${VF}/custom/swap_with_spec.xml)
ccforge_cli_test("verify: a gzip bomb is refused at the size cap" 2
  --has "larger than 1 MiB once inflated"
  -- verify --max-input-size 1MB ${FIXTURES}/malformed/bomb.xml.gz)
# Diagnostics in the compilers' format (FILE:LINE:COLUMN: error|warning|note: MESSAGE [RULE]) over
# many failing inputs: tests/e2e/diagnostics_format.sh.
add_test(NAME "cli: diagnostics: every failing input's diagnostics read as FILE:LINE:COLUMN: SEVERITY: MESSAGE [RULE]"
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/diagnostics_format.sh $<TARGET_FILE:ccforge> ${FIXTURES}
          ${CMAKE_CURRENT_SOURCE_DIR}/data ${CMAKE_CURRENT_BINARY_DIR}/diagnostics-format)
set_tests_properties("cli: diagnostics: every failing input's diagnostics read as FILE:LINE:COLUMN: SEVERITY: MESSAGE [RULE]"
  PROPERTIES TIMEOUT 600)
ccforge_cli_test("verify --progress names each file of a directory as it is checked, then the selection" 10
  --has "ccforge verify: progress: \\[[0-9]+\\.[0-9] s\\] verifying .*shadowed/[^ ]+\\.xml \\(1 of 2\\)"
  --has "ccforge verify: progress: \\[[0-9]+\\.[0-9] s\\] checking which file each call selects in .*shadowed"
  --has ": error: .*\\[selection.shadowed\\]$"
  -- verify --progress ${FIXTURES}/verify-dirs/shadowed)
ccforge_cli_test("verify without --progress and a terminal prints no progress" 10
  --lacks "progress:" -- verify ${FIXTURES}/verify-dirs/shadowed)
# SCCL's own lowering of its reducescatter (tests/fixtures/sccl-ncclize) reduces into the
# caller's input buffer of an out-of-place call; its allgather and alltoall files are correct.
ccforge_cli_test("verify: SCCL ncclize's reducescatter writes the caller's send buffer" 10
  --has "reducescatter_c2_s2_r3.xml:[0-9]+:[0-9]+: error: rank [0-9]+ tb [0-9]+ step [0-9]+: 'rrc' writes i.* .buffers.sendbuf-written.$"
  -- verify ${FIXTURES}/sccl-ncclize/reducescatter_c2_s2_r3.xml)
ccforge_cli_test("verify: SCCL ncclize's allgather and alltoall files are verified" 0
  --has "4 of 4 files verified"
  -- verify ${FIXTURES}/sccl-ncclize/allgather_c2_s2_r3.xml ${FIXTURES}/sccl-ncclize/allgather_c6_s3_r7.xml
     ${FIXTURES}/sccl-ncclize/alltoall_c1_s2_r3.xml ${FIXTURES}/sccl-ncclize/alltoall_c3_s2_r8.xml)

# Report noise (issue 26, item 6): a rule's findings past the first 5 of a file are one note with
# the count in text (JSON keeps every one); --quiet prints only findings and failing verdicts.
ccforge_cli_test("verify: a rule's findings past the first five are counted in one note" 10
  --has "nchannels_int32_min.xml:23:5: note: 2 more findings of this rule, the first here \\(of 7 in all.*\\[limits.channels\\]"
  --has "gpu 1 tb 0: chan=0 is outside" --lacks "gpu 1 tb 1: chan=0" --lacks "gpu 1 tb 2: chan=0"
  -- verify ${VF}/limits/nchannels_int32_min.xml)
ccforge_cli_test("verify: the JSON report keeps every finding the text report counts" 10
  --has "gpu 1 tb 2: chan=0 is outside" --lacks "more findings of this rule"
  -- verify --format json ${VF}/limits/nchannels_int32_min.xml)
ccforge_cli_test("verify --quiet: findings and the failing verdict, located, nothing else" 10
  --has "nchannels_int32_min.xml:7:1: error: nchannels=-2147483648 is outside"
  --has "nchannels_int32_min.xml: verdict: VIOLATION \\(7 errors, 0 warnings\\)"
  --lacks "== " --lacks "postcondition +passed" --lacks "profile msccl-executor from the header"
  -- verify --quiet ${VF}/limits/nchannels_int32_min.xml)
ccforge_cli_test("verify -q: a verified file prints nothing but the summary of several" 0
  --has "^2 of 2 files verified" --lacks "verdict" --lacks "== "
  -- verify -q ${VF}/good/allgather_pairs_n2.xml ${VF}/good/allreduce_pairs_n2.xml)
ccforge_cli_test("verify: a note every file has is printed once, with the count of the others" 0
  --has "allgather_pairs_n2.xml:1:1: note: profile msccl-executor from the header"
  --lacks "allreduce_pairs_n2.xml:1:1: note: profile"
  --has "the note \"profile msccl-executor from the header .*\" holds for 1 more file$"
  -- verify ${VF}/good/allgather_pairs_n2.xml ${VF}/good/allreduce_pairs_n2.xml)

# Rule control beyond --disable/--warn/--error (docs/verify.md, "Rule control"): a baseline
# written by one run, a configuration file found upward, suppressions in SARIF.
set(RULE_CONTROL ${CMAKE_CURRENT_BINARY_DIR}/rule-control)
add_test(NAME "cli: verify: a baseline written by one run accepts the same findings in the next"
  COMMAND ${CCFORGE_EXPECT} 0 --has "verdict: ACCEPTED \\(0 errors, 0 warnings, 3 suppressed\\)"
  -- sh -c "rm -rf ${RULE_CONTROL}/baseline && mkdir -p ${RULE_CONTROL}/baseline && cd ${RULE_CONTROL}/baseline && cp ${VF}/deadlock/dependency_cycle.xml d.xml && { $<TARGET_FILE:ccforge> verify d.xml --write-baseline base.json > /dev/null; test $? -eq 10; } && grep -q '\"rule\": \"deadlock.cycle\"' base.json && $<TARGET_FILE:ccforge> verify d.xml --baseline base.json")
add_test(NAME "cli: verify: a finding the baseline does not list still fails the gate"
  COMMAND ${CCFORGE_EXPECT} 10 --has "verdict: VIOLATION \\(1 error, 0 warnings, 1 suppressed\\)"
  -- sh -c "rm -rf ${RULE_CONTROL}/partial && mkdir -p ${RULE_CONTROL}/partial && cd ${RULE_CONTROL}/partial && cp ${VF}/deadlock/dependency_cycle.xml d.xml && printf '{\"format\": \"ccforge-baseline/1\", \"findings\": [{\"file\": \"d.xml\", \"rule\": \"postcondition.wrong-chunk\", \"message\": \"out-of-place: rank 0 output chunk 0 holds uninitialised, but allreduce requires in(0,0)\"}]}' > base.json && $<TARGET_FILE:ccforge> verify d.xml --baseline base.json --disable deadlock")
add_test(NAME "cli: verify: the configuration file above the verified path disables rules, and --no-config ignores it"
  COMMAND ${CCFORGE_EXPECT} 10 --has "^ok: accepted by the configuration$" --has "deadlock.cycle\\]$"
  -- sh -c "rm -rf ${RULE_CONTROL}/config && mkdir -p ${RULE_CONTROL}/config/algos/a100 && cd ${RULE_CONTROL}/config && cp ${VF}/deadlock/dependency_cycle.xml algos/a100/d.xml && printf '{\"verify\": {\"disable\": [\"deadlock\", \"postcondition\"]}}' > .ccforge.json && $<TARGET_FILE:ccforge> verify algos/a100/d.xml > /dev/null && echo 'ok: accepted by the configuration' && $<TARGET_FILE:ccforge> verify --no-config algos/a100/d.xml")
add_test(NAME "cli: verify: a configuration file naming no rule is a located error (exit 2)"
  COMMAND ${CCFORGE_EXPECT} 2 --has "/.ccforge.json:1:25: error: --disable deadlok: no rule or group of rules has this name"
  -- sh -c "rm -rf ${RULE_CONTROL}/bad && mkdir -p ${RULE_CONTROL}/bad && cd ${RULE_CONTROL}/bad && cp ${VF}/good/allreduce_pairs_n2.xml g.xml && printf '{\"verify\": {\"disable\": [\"deadlok\"]}}' > .ccforge.json && $<TARGET_FILE:ccforge> verify g.xml")
ccforge_cli_test("verify: SARIF marks findings suppressed in the file as SARIF suppressions" 0
  --has "\"kind\": \"inSource\"" --has "\"justification\": \"a fixture of the suppression comments\""
  -- verify --format sarif ${VF}/suppressions/every_finding_suppressed.xml)
ccforge_cli_test("verify: --config and --no-config exclude each other" 1
  --has "excludes"
  -- verify --config x.json --no-config ${VF}/good/allreduce_pairs_n2.xml)
ccforge_cli_test("verify: a number the runtime's strtol reads only in part is a located read error (exit 2)" 2
  --has "number_read_in_part.xml:6:72: error: attribute 'cnt' must be an integer, got \"1k\""
  -- verify ${FIXTURES}/malformed/number_read_in_part.xml)
