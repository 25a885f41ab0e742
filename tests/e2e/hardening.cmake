# End-to-end tests of ccforge's own limits (docs/limits.md) and of its answers to absurd or
# broken requests: refused up front with exit 1 or 2 and a message naming the limit, never an
# internal error, a crash or minutes of work. Expected outcomes are stated here, from the limits
# and from hand computation.
set(LIMITS_DATA ${CMAKE_CURRENT_SOURCE_DIR}/data)
set(HARDEN_GOOD ${FIXTURES}/verify/good/allgather_pairs_n2.xml)
set(HARDEN_RING ${FIXTURES}/msccl-tools/valid/allreduce_ring_a100_n4_ch1_i1_LL128.xml)
set(HARDEN_OUT ${CMAKE_CURRENT_BINARY_DIR}/hardening_out)
file(MAKE_DIRECTORY ${HARDEN_OUT})
file(WRITE ${HARDEN_OUT}/existing_file "")

# --- (a) absurd requests: refused in well under a second --------------------------------------
# Ring allreduce on one channel: a thread block gets 2 * ceil(ranks / channels) - 1 steps; the
# executor allows 64, so ranks=33 is the first that cannot fit (65 steps).
ccforge_cli_test("limits: compile ring-allreduce ranks=2000 is refused up front" 1
  --has "ring-allreduce boxes=1 channels=1 inplace=1 instances=1 ranks=2000 split=0: its busiest thread block would need 3999 steps. msccl-executor allows 64 per thread block"
  -- compile ring-allreduce ranks=2000)
ccforge_cli_test("limits: compile ring-allreduce ranks=128 suggests channels=4" 1
  --has "would need 255 steps. msccl-executor allows 64 per thread block \\(MSCCL_MAX_NUM_STEPS\\). Use channels=4"
  -- compile ring-allreduce ranks=128)
ccforge_cli_test("limits: compile ring-allreduce ranks=33 needs 65 steps" 1
  --has "would need 65 steps" -- compile ring-allreduce ranks=33)
ccforge_cli_test("limits: compile ring-allreduce ranks=32 fits (63 steps)" 0
  --has "32 ranks, 1 channels" -- compile ring-allreduce ranks=32 -o ${HARDEN_OUT}/ring32.xml)
ccforge_cli_test("limits: compile ring-allgather ranks=65 is refused, suggesting channels=2" 1
  --has "would need 65 steps. .* Use channels=2" -- compile ring-allgather ranks=65)
ccforge_cli_test("limits: the legacy profile's 256 steps are suggested when channels cannot help" 1
  --has "ring-reducescatter boxes=1 channels=32 .* would need 65 steps" --has "Use --profile msccl-legacy \\(256 steps per thread block\\)"
  -- compile ring-reducescatter ranks=2049 channels=32)
ccforge_cli_test("limits: compile three-step-alltoall nodes=375 gpus=8 is over the buffer-chunk limit" 1
  --has "a program of 3000 ranks with 3000 chunks per rank buffer is over ccforge's limit of 4194304 buffer chunks"
  -- compile three-step-alltoall nodes=375 gpus=8)
# One thread block per send peer, all resident: the executor holds 108 per rank, the legacy runtime 216.
ccforge_cli_test("limits: compile allpairs-allreduce ranks=1024 is refused up front (1023 send peers)" 1
  --has "allpairs-allreduce inplace=1 instances=1 ranks=1024: every rank would send to 1023 peers .* msccl-executor allows 108 thread blocks per rank"
  --has "Use fewer ranks" -- compile allpairs-allreduce ranks=1024)
ccforge_cli_test("limits: compile allpairs-allgather ranks=55 instances=2 counts the replicas (108 fits)" 0
  --has "55 ranks" -- compile allpairs-allgather ranks=55 instances=2 -o ${HARDEN_OUT}/allpairs55.xml)
ccforge_cli_test("limits: compile allpairs-allgather ranks=56 instances=2 needs 110 thread blocks" 1
  --has "every rank would send to 110 peers" -- compile allpairs-allgather ranks=56 instances=2)
ccforge_cli_test("limits: compile allpairs-allgather ranks=56 instances=2 --max-tbs 110 fits the larger GPU" 0
  --has "56 ranks" -- compile allpairs-allgather ranks=56 instances=2 --max-tbs 110 -o ${HARDEN_OUT}/allpairs56.xml)
ccforge_cli_test("limits: compile two-step-alltoall nodes=128 gpus=8 suggests the legacy runtime" 1
  --has "every rank would send to 134 peers" --has "Use --profile msccl-legacy \\(216 thread blocks per rank\\) or fewer ranks"
  -- compile two-step-alltoall nodes=128 gpus=8)
ccforge_cli_test("limits: compile hierarchical-allreduce nodes=1000 gpus=1000 is over the rank limit" 1
  --has "a program of 1000000 ranks is over ccforge's limit of 4096 ranks"
  -- compile hierarchical-allreduce nodes=1000 gpus=1000)
# About 2 x 1400 x 1399 transfers and copies to scratch: refused once the 2^22-th is recorded (a
# few seconds of building). `dot`, since `compile` refuses the 1399 send peers before building.
ccforge_cli_test("limits: dot allpairs-allreduce ranks=1400 is over the transfer limit" 1
  --has "the program records more than 4194304 copy and reduce operations, ccforge's limit"
  -- dot allpairs-allreduce ranks=1400)
ccforge_cli_test("limits: dot of a program over the limits is refused too" 1
  --has "1000000 ranks is over ccforge's limit" -- dot hierarchical-allreduce nodes=1000 gpus=1000)
ccforge_cli_test("limits: bounds of a 4096-GPU ring is over the work limit" 1
  --has "topology ring4096 is too large for the exact bounds: 4096 GPUs x 4096 vertices x 8192 links is over ccforge's work limit of 2\\^28"
  -- bounds ${LIMITS_DATA}/limits_ring4096.json)
ccforge_cli_test("limits: bounds of 512 fully connected GPUs is over the work limit" 1
  --has "512 GPUs x 512 vertices x 261632 links is over ccforge's work limit"
  -- bounds ${LIMITS_DATA}/limits_fc512.json allgather)
ccforge_cli_test("limits: a spec of more than 4096 GPUs is refused while it is read" 2
  --has "limits_switch12288.json:.*/boxes: the topology has more than 4096 GPUs, ccforge's limit"
  -- synth ${LIMITS_DATA}/limits_switch12288.json allgather --timeout 20)
ccforge_cli_test("limits: synth on a 4096-GPU ring is over the SMT method's GPU limit" 1
  --has "topology ring4096 has 4096 GPUs. the SMT method synthesizes for at most 16"
  -- synth ${LIMITS_DATA}/limits_ring4096.json allgather --timeout 20)
ccforge_cli_test("limits: synth on 16 x 16 x 16 boxes is over the tree method's GPU limit" 1
  --has "topology boxes16 has 4096 GPUs. the tree method synthesizes for at most 1024"
  -- synth ${LIMITS_DATA}/limits_boxes16x16x16.json allreduce --timeout 20)
ccforge_cli_test("limits: topo show of 1024 x 1024 boxes is refused at the GPU limit" 2
  --has "the topology has more than 4096 GPUs" -- topo show ${LIMITS_DATA}/limits_boxes1024x1024.json)
ccforge_cli_test("limits: topo show of 16 x 16 x 16 boxes works, the automorphism search bounded" 0
  --has "4096 GPUs" --has "the automorphism search stopped at its work limit"
  -- topo show ${LIMITS_DATA}/limits_boxes16x16x16.json)
ccforge_cli_test("limits: bounds of 16 x 16 x 16 boxes is over the work limit" 1
  --has "is over ccforge's work limit" -- bounds ${LIMITS_DATA}/limits_boxes16x16x16.json)
ccforge_cli_test("limits: synth --steps 2000000000 is refused" 1
  --has "--steps 2000000000 is out of range: an instance has 1 to 4096"
  -- synth dgx1 allgather --chunks 1 --steps 2000000000 --rounds 2000000000)
ccforge_cli_test("limits: an SMT instance over the encoding limit is refused" 1
  --has "instance \\(C,S,R\\) = \\(2,64,512\\) on 8 GPUs: C x R x GPUs = 8192 is over ccforge's instance limit of 2048"
  -- synth dgx1 allgather --chunks 2 --steps 64 --rounds 512)
ccforge_cli_test("limits: bandwidths too fine-grained for 64-bit max-flows are an input error" 2
  --has "limits_fine_bandwidth.json:1:1: error: topology fine: bandwidths too fine-grained for an exact max-flow in 64 bits"
  --lacks "internal error"
  -- bounds ${LIMITS_DATA}/limits_fine_bandwidth.json allgather)
ccforge_cli_test("limits: a collective spec over the chunk limit is an input error" 2
  --has "limits_spec_huge.json:1:27: error: at /ranks: more than 4096 ranks" --lacks "bad_alloc"
  -- verify --collective ${LIMITS_DATA}/limits_spec_huge.json ${HARDEN_GOOD})

# Every refusal above is timed: one that starts doing the work it bounds (minutes of building, a
# max-flow per GPU) fails here. The slowest, dot allpairs-allreduce ranks=1400, takes about 3 s.
if(CCFORGE_SANITIZE)
  set(LIMIT_REFUSAL_TIMEOUT 120)
else()
  set(LIMIT_REFUSAL_TIMEOUT 20)
endif()
get_property(limit_tests DIRECTORY PROPERTY TESTS)
foreach(t IN LISTS limit_tests)
  if(t MATCHES "^cli: (limits: |run: scratch past the memory limit)")
    set_tests_properties("${t}" PROPERTIES TIMEOUT ${LIMIT_REFUSAL_TIMEOUT})
  endif()
endforeach()

# --- (b) crashes and undefined behaviour (the sanitizer pass runs these too) -------------------
ccforge_cli_test("limits: run --count 2^62 is refused before any allocation" 1
  --has "--count 4611686018427387904: the call needs far more than 16 GiB of host memory, over the limit of"
  -- run ${HARDEN_RING} --count 4611686018427387904)
ccforge_cli_test("limits: run --count 2^34 is refused, naming the memory it needs" 1
  --has "--count 17179869184: the call needs about [0-9.]+ TiB of host memory, over the limit of" --lacks "bad_alloc"
  -- run ${HARDEN_RING} --count 17179869184)
ccforge_cli_test("run --count 0 runs an empty call" 0
  --has "check: all 0 constrained output elements match" -- run ${HARDEN_RING} --count 0 --iters 1)
ccforge_cli_test("dot of a file whose srcoff is 2^31 - 1 draws it" 0
  --has "i\\[2147483647\\]" -- dot ${LIMITS_DATA}/limits_huge_srcoff.xml)
ccforge_cli_test("verify of a file whose cnt is 2^31 - 1 answers at once" 10
  --has "the steps move [0-9]+ chunks in all, more than" -- verify ${LIMITS_DATA}/limits_huge_cnt.xml)
ccforge_cli_test("verify of a file claiming 2^31 - 1 GPUs answers at once" 10
  --has "verdict: VIOLATION" -- verify ${LIMITS_DATA}/limits_huge_ngpus.xml)

# --- (c) exit codes and output ----------------------------------------------------------------
ccforge_cli_test("verify -o /dev/full exits 1 with the reason" 1
  --has "cannot write /dev/full: No space left on device" -- verify -o /dev/full ${HARDEN_GOOD})
ccforge_cli_test("compile -o /dev/full exits 1 with the reason" 1
  --has "cannot write /dev/full: No space left on device" -- compile ring-allreduce ranks=4 -o /dev/full)
ccforge_cli_test("verify -o into a missing directory is refused before verifying" 1
  --has "cannot write /nonexistent/dir/report.txt: no directory /nonexistent/dir" -- verify -o /nonexistent/dir/report.txt ${HARDEN_GOOD})
ccforge_cli_test("verify --smt-timeout nan is a usage error" 1
  --has "--smt-timeout: 'nan' is not a number in" -- verify --smt-timeout nan ${HARDEN_GOOD})
ccforge_cli_test("verify --max-input-size -1 is a usage error" 1
  --has "--max-input-size: '-1' is not a size" -- verify --max-input-size -1 ${HARDEN_GOOD})
ccforge_cli_test("verify --max-input-size 0 is a usage error" 1
  --has "--max-input-size must be between 1 byte and" -- verify --max-input-size 0 ${HARDEN_GOOD})
ccforge_cli_test("verify --collective nosuch is a usage error" 1
  --has "--collective nosuch: unknown collective" --lacks "verdict" -- verify --collective nosuch ${HARDEN_GOOD})
ccforge_cli_test("dot -o into a missing directory exits 1" 1
  --has "cannot write /nonexistent/dir/x.dot: no directory /nonexistent/dir" -- dot ${HARDEN_GOOD} -o /nonexistent/dir/x.dot)
ccforge_cli_test("dot --rank past the program's ranks is a usage error" 1
  --has "--rank 9: the program has ranks 0..1" -- dot ${HARDEN_GOOD} --rank 9)
ccforge_cli_test("topo dot -o with an unknown extension is a usage error" 1
  --has "-o .*x.jpeg: the extension must be .dot, .gv, .svg, .png or .pdf" -- topo dot dgx1 -o ${HARDEN_OUT}/x.jpeg)
add_test(NAME "cli: topo dot -o x.png renders a PNG"
  COMMAND bash -c "rm -f \"$2\" && \"$1\" topo dot dgx1 -o \"$2\" && head -c 4 \"$2\" | od -An -c | grep -q 'P   N   G'"
          _ $<TARGET_FILE:ccforge> ${HARDEN_OUT}/dgx1.png)
ccforge_cli_test("synth -o an existing file exits 1 before searching" 1
  --has "-o .*existing_file: it exists and is not a directory" --lacks "\\(C,S,R\\)"
  -- synth dgx1 allgather --chunks 2 --steps 2 --rounds 3 -o ${HARDEN_OUT}/existing_file)
ccforge_cli_test("synth -o an unwritable directory exits 1" 1
  --has "-o /proc/ccforge-nope: cannot create the directory"
  -- synth dgx1 allgather --chunks 2 --steps 2 --rounds 3 -o /proc/ccforge-nope)
ccforge_cli_test("synth --timeout nan is a usage error" 1
  --has "--timeout: 'nan' is not a number" -- synth dgx1 allgather --timeout nan)
ccforge_cli_test("synth --collective nosuch is a usage error" 1
  --has "unknown collective 'nosuch'" -- synth dgx1 nosuch)
ccforge_cli_test("synth without -o says that nothing was written" 0
  --has "\\(C,S,R\\) = \\(2,2,3\\) .*verified, deployable for"
  --has "nothing was written \\(no -o\\). pass -o DIR to write the 2 deployable programs"
  -- synth dgx1 allgather --chunks 2 --steps 2 --rounds 3 --all-windows)
# Option values: no ccforge option takes an empty string or a negative number (CLI11 would read
# "-1" as the largest unsigned value), and every range is checked before the work.
ccforge_cli_test("run --slots 10000000 is a usage error, not an allocation failure" 1
  --has "--slots: Value 10000000 not in range 1 to 1024" -- run --slots 10000000 ${HARDEN_GOOD})
ccforge_cli_test("run --slots 0 is a usage error" 1 --has "--slots: Value 0 not in range 1 to 1024" -- run --slots 0 ${HARDEN_GOOD})
ccforge_cli_test("run --tile-bytes 0 is a usage error" 1
  --has "--tile-bytes: Value 0 not in range 16 to" -- run --tile-bytes 0 ${HARDEN_GOOD})
# CMake drops empty arguments, so these three go through bash.
foreach(empty_case
    "run --count '' ${HARDEN_GOOD}|--count: an empty value is not accepted"
    "bounds dgx1 ''|collective: an empty value is not accepted"
    "compile ring-allreduce ranks=4 -o ''|--output: an empty value is not accepted")
  string(REPLACE "|" ";" parts "${empty_case}")
  list(GET parts 0 empty_args)
  list(GET parts 1 empty_message)
  add_test(NAME "cli: an empty option value is a usage error: ${empty_args}"
    COMMAND bash -c "out=$(\"$1\" ${empty_args} 2>&1); code=$?; echo \"$out\"; test $code = 1 && grep -q -- \"$2\" <<<\"$out\" && ! grep -q '<algo' <<<\"$out\""
            _ $<TARGET_FILE:ccforge> "${empty_message}")
endforeach()
ccforge_cli_test("verify --smt-rlimit -1 does not wrap" 1
  --has "--smt-rlimit: '-1' is negative" -- verify --smt-rlimit -1 ${HARDEN_GOOD})
ccforge_cli_test("simulate --max-events -1 does not wrap" 1
  --has "--max-events: '-1' is negative" -- simulate ${HARDEN_GOOD} dgx1 --max-events -1)
ccforge_cli_test("run --seed -1 does not wrap" 1 --has "--seed: '-1' is negative" -- run --seed -1 ${HARDEN_GOOD})
ccforge_cli_test("tune --margin nan is a usage error" 1
  --has "--margin: 'nan' is not a number in" -- tune dgx1 allreduce -o ${HARDEN_OUT}/tune_nan --margin nan)
ccforge_cli_test("tune --file of a missing file is unreadable input" 2
  --has "missing.xml:1:1: error: no such file" -- tune dgx1 allreduce -o ${HARDEN_OUT}/tune_missing --file ${HARDEN_OUT}/missing.xml --no-synth)
ccforge_cli_test("compile of a missing SCCL file is unreadable input" 2
  --has "missing.json:1:1: error: cannot read .*missing.json: No such file or directory"
  -- compile ${HARDEN_OUT}/missing.json)
ccforge_cli_test("topo import --boxes 1000000 is refused before a box is built" 1
  --has "1000000 boxes: a spec has at most 1024" -- topo import ${FIXTURES}/topology-dumps/h100-ibm-cloud-gx3d.xml --boxes 1000000)
ccforge_cli_test("topo import of 1024 boxes of 8 GPUs is refused at the GPU limit" 1
  --has "1024 boxes make 8192 GPUs: a spec has at most 4096" -- topo import ${FIXTURES}/topology-dumps/h100-ibm-cloud-gx3d.xml --boxes 1024)
set_tests_properties("cli: topo import --boxes 1000000 is refused before a box is built" PROPERTIES TIMEOUT 20)
# The thread-block limit is checked as channels are assigned, at the 109th connection of rank 0,
# not after scheduling 511 thread blocks per rank (issue 30: 80 s, then 7.6 s, now about 2 s).
ccforge_cli_test("dot of an all-pairs allreduce of 512 ranks is refused at the thread-block limit, early" 10
  --has "allpairs_allreduce.cpp:[0-9]+:[0-9]+: no channel can carry this transfer from rank 0: on every channel, rank 0 already has 108 thread blocks that send"
  -- dot allpairs-allreduce ranks=512 --all-ranks -o ${HARDEN_OUT}/never.dot)
set_tests_properties("cli: dot of an all-pairs allreduce of 512 ranks is refused at the thread-block limit, early" PROPERTIES TIMEOUT 30)
# compile refuses it before building: the library knows the all-pairs peers from the parameters.
ccforge_cli_test("compile of an all-pairs alltoall of 1024 ranks is refused up front" 1
  --has "every rank would send to 1023 peers" --lacks "<algo"
  -- compile allpairs-alltoall ranks=1024 -o ${HARDEN_OUT}/never-a2a.xml)
set_tests_properties("cli: compile of an all-pairs alltoall of 1024 ranks is refused up front" PROPERTIES TIMEOUT 10)
# A 1 MB file (gzipped: the data file) that declares 4,000 ranks x 4,000 input and output chunks,
# 32 million cells, with one copy per rank (written by a Python loop, tests/e2e/data): over the
# symbolic checks' 2^24 cells, so races and the postcondition are inconclusive at once, where they
# used to take 68 s and 2 GB. Its 4,000 <gpu> elements are over the runtime parser's 1,024: exit 10.
ccforge_cli_test("verify of a file declaring 32 million buffer cells is inconclusive at the cell limit, early" 10
  --has "races +inconclusive +the buffers hold 32000000 chunks in all, more than the 16777216"
  -- verify ${LIMITS_DATA}/limits_alltoall4000_cells.xml.gz)
set_tests_properties("cli: verify of a file declaring 32 million buffer cells is inconclusive at the cell limit, early" PROPERTIES TIMEOUT 10)
# A file name is bytes; JSON is UTF-8: the report keeps the file, its name with U+FFFD for the byte.
add_test(NAME "cli: verify --format json of a path with a non-UTF-8 byte gives the report"
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/non_utf8_path.sh $<TARGET_FILE:ccforge> ${HARDEN_GOOD})
ccforge_cli_test("compile refused for a limit writes no file" 1
  --has "would need 3999 steps" -- compile ring-allreduce ranks=2000 -o ${HARDEN_OUT}/never.xml)
add_test(NAME "cli: an output is written whole or not at all (no partial or temporary file)"
  COMMAND bash -c "cd \"$2\" && rm -f never.xml out.xml && \"$1\" compile ring-allreduce ranks=4 -o out.xml 2>/dev/null && test -s out.xml && ! ls -a | grep -q 'tmp[0-9]' && test ! -e never.xml"
          _ $<TARGET_FILE:ccforge> ${HARDEN_OUT})
set_tests_properties("cli: an output is written whole or not at all (no partial or temporary file)"
  PROPERTIES DEPENDS "cli: compile refused for a limit writes no file")

# --- (d) the allreduce row of bounds, by hand --------------------------------------------------
# A line of 4 GPUs, 25 GB/s links: the allgather cut {gpu0, gpu1, gpu2} has one link out for
# 3 GPUs, so x = 1/3 unit, rounds per chunk 3, steps 3 (the diameter); reducescatter the same on
# the reversed links. Allreduce as RS + AG: steps 3 + 3 = 6, rounds per chunk 3 + 3 = 6, and
# time M/N * 6 / 25 GB/s, i.e. algbw <= 4 * 25 / 6 = 50/3 GB/s.
ccforge_cli_test("bounds allreduce on a 4-GPU line: 6 steps, 6 rounds per chunk, 50/3 GB/s" 0
  --has "allreduce +6 +6 +16.67 +50/3" -- bounds ${LIMITS_DATA}/topo_line4.json allreduce)
# DGX-1: allgather and reducescatter each 2 steps, 7/6 rounds, 1200/7 GB/s: allreduce 4, 7/3, 600/7.
ccforge_cli_test("bounds dgx1 prints an allreduce row" 0
  --has "allreduce +4 +7/3 +85.71 +600/7" -- bounds dgx1)

# --- the bad-input sweep ------------------------------------------------------------------------
add_test(NAME "cli: bad-input sweep (no crash, internal error or time-out on malformed and absurd input)"
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/bad_input_sweep.sh $<TARGET_FILE:ccforge> ${FIXTURES})
# Under ASan+UBSan every case runs a few times slower: 30 s each instead of 10, and 100 mutants of
# valid inputs instead of 200.
if(CCFORGE_SANITIZE)
  set(SWEEP_LIMIT 30)
  set(SWEEP_MUTANTS 100)
  set(SWEEP_TIMEOUT 1800)
else()
  set(SWEEP_LIMIT 10)
  set(SWEEP_MUTANTS 200)
  set(SWEEP_TIMEOUT 900)
endif()
set_tests_properties("cli: bad-input sweep (no crash, internal error or time-out on malformed and absurd input)"
  PROPERTIES TIMEOUT ${SWEEP_TIMEOUT} ENVIRONMENT "CCFORGE_SWEEP_LIMIT=${SWEEP_LIMIT};CCFORGE_SWEEP_MUTANTS=${SWEEP_MUTANTS}")

# --- linear costs --------------------------------------------------------------------------------
add_test(NAME "cli: verify grows linearly in ranks and thread blocks, 100,000 of each in seconds"
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/verify_scaling.py $<TARGET_FILE:ccforge> ${PROJECT_SOURCE_DIR}/bench/verify/scaling_inputs.py)
set_tests_properties("cli: verify grows linearly in ranks and thread blocks, 100,000 of each in seconds" PROPERTIES TIMEOUT 300)

# synth -o DIR proves DIR can be created before the search but does not leave it there: a search
# killed midway leaves no empty directory (the first file written creates it).
add_test(NAME "cli: synth -o of a new directory killed during the search leaves no directory"
  COMMAND bash -c "d=\"$2\"/killed_synth && rm -rf \"$d\" && { \"$1\" synth dgx1 allreduce --timeout 60 -o \"$d/sub\" >/dev/null 2>&1 & pid=$!; sleep 1.5; kill -9 $pid; wait $pid; test ! -e \"$d\"; }"
          _ $<TARGET_FILE:ccforge> ${HARDEN_OUT})

# A mistyped command or option is named, with the nearest known name (issue 26, item 6).
ccforge_cli_test("a mistyped command gets the nearest command" 1
  --has "'verfy' is not a ccforge command. did you mean 'verify'" --lacks "A subcommand is required" -- verfy x.xml)
ccforge_cli_test("a word that is no command says so" 1
  --has "'bogus' is not a ccforge command. .ccforge --help. lists them" --lacks "did you mean"
  --lacks "A subcommand is required" -- bogus)
ccforge_cli_test("a mistyped option gets the nearest option of its command" 1
  --has "'--slot' is not an option of 'verify'. did you mean '--slots'" -- verify --slot 3 x.xml)
ccforge_cli_test("an option far from every name gets no guess" 1
  --has "not expected: --zzzzzz" --lacks "did you mean" -- verify --zzzzzz x.xml)

# Shell completion generated from the command line (issue 26, item 6).
add_test(NAME "cli: completion: the bash and zsh scripts complete commands, nested commands and options"
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/completion.sh $<TARGET_FILE:ccforge>)

# The GitHub Actions workflow in .github parses, its problem matcher reads ccforge's findings and
# its ccforge steps run as written (issue 26, item 6).
add_test(NAME "cli: the GitHub Actions workflow parses, its matcher reads findings, its ccforge steps gate and write SARIF"
  COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/github_workflow.py ${PROJECT_SOURCE_DIR}
          $<TARGET_FILE:ccforge> ${CMAKE_CURRENT_BINARY_DIR}/github-workflow)
