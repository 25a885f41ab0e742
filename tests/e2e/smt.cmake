# The SMT engine through the command line: --engine, --solver, limits, dumps and witnesses.
set(VF ${FIXTURES}/verify)

ccforge_cli_test("smt: a correct program is verified by the SMT engine" 0
  --has "deadlock +passed +SMT: 3 configuration" --has "smt: engine smt, solver z3"
  --has "smt slots: deadlock-free with 2 slots .*deadlocks with 1 \\(sat: tiles=1 maxAllowedCount=71 slots=1\\)"
  --has "smt tiles: checked up to 3 tile iterations. deadlock-free for every number of tile iterations"
  --has "verdict: VERIFIED"
  -- verify --engine smt ${VF}/good/allreduce_pairs_n2.xml)
ccforge_cli_test("smt: a deadlock comes with a replayed witness schedule and the stuck state" 10
  --has "error\\[deadlock.stuck-state\\] .*allreduce_pairs_one_slot.xml:[0-9]+:[0-9]+: deadlock with tiles=1 maxAllowedCount=71 slots=1"
  --has "witness 1: deadlock \\(deadlock tiles=1 maxAllowedCount=71 slots=1\\), [0-9]+ events. replayed"
  --has "    1\\. rank [0-9] tb [0-9] step [0-9] tile 0 units? " --has "blocked: rank [0-9] tb [0-9] step [0-9] \\(tile 0\\)"
  -- verify --engine smt --slots 1 ${VF}/deadlock/allreduce_pairs_one_slot.xml)
ccforge_cli_test("smt: both solvers cross-check every query" 10
  --has "\\[races\\] races out-of-place: sat \\(z3 sat, cvc5 sat\\)" --has "solvers z3 and cvc5"
  --has "error\\[race.changes-result\\].*rank 0 output chunk 1 holds uninitialised in one and in\\(0,1\\) in another"
  --has "'cpy' reads s\\[0\\]: its initial value here, the write of tb 0 step 0 in the other interleaving"
  -- verify --engine smt --solver both ${VF}/races/write_read_unordered.xml)
ccforge_cli_test("smt: a race that changes no result is not reported" 0
  --has "races +passed +SMT: no interleaving changes an output chunk" --lacks "^error"
  -- verify --engine smt ${VF}/races/write_write_unordered.xml)
ccforge_cli_test("smt: --engine both reports the simulation's races and says which matter" 10
  --has "error\\[race.write-write\\]" --has "none of these races changes an output chunk" --lacks "engines.disagree"
  -- verify --engine both --solver both ${VF}/races/write_write_unordered.xml)
ccforge_cli_test("smt: a solver out of resources is inconclusive with the reason" 5
  --has "deadlock +inconclusive +SMT: no answer for tiles=1 maxAllowedCount=71 slots=2: cvc5 unknown \\(resource limit reached \\(rlimit 1\\)\\)"
  --has "verdict: INCONCLUSIVE"
  -- verify --engine smt --solver cvc5 --smt-rlimit 1 ${VF}/good/allreduce_pairs_n2.xml)
ccforge_cli_test("smt: an unknown engine is a usage error" 1
  --has "--engine"
  -- verify --engine fast ${VF}/good/allreduce_pairs_n2.xml)
ccforge_cli_test("smt: an unknown solver is a usage error" 1
  --has "--solver"
  -- verify --engine smt --solver yices ${VF}/good/allreduce_pairs_n2.xml)
ccforge_cli_test("smt: a dump directory that cannot be created is a usage error" 1
  --has "--dump-smt /proc/ccforge-no: cannot create the directory"
  -- verify --engine smt --dump-smt /proc/ccforge-no ${VF}/good/allreduce_pairs_n2.xml)
ccforge_cli_test("smt: JSON report with queries and witness schedules" 10
  --has "\"smt\": " --has "\"engine\": \"smt\"" --has "\"answer\": \"sat\"" --has "\"kind\": \"deadlock\""
  --has "\"schedule\": " --has "\"unit\": 0" --has "\"minimum_slots\": 2"
  -- verify --engine smt --slots 1 --format json ${VF}/deadlock/allreduce_pairs_one_slot.xml)
ccforge_cli_test("smt: SARIF report of an SMT deadlock" 10
  --has "\"ruleId\": \"deadlock.stuck-state\"" --has "\"threadFlows\""
  -- verify --engine smt --slots 1 --format sarif ${VF}/deadlock/allreduce_pairs_one_slot.xml)

set(WITNESS_DIR ${CMAKE_CURRENT_BINARY_DIR}/smt-witnesses)
add_test(NAME "cli: smt: --witness-dir writes one JSON file per witness"
  COMMAND ${CCFORGE_EXPECT} 0 --has "\"kind\": \"deadlock\"" --has "\"configuration\": " --has "\"blocked\": "
  -- bash -c "rm -rf '${WITNESS_DIR}' && '$<TARGET_FILE:ccforge>' verify --engine smt --slots 1 --witness-dir '${WITNESS_DIR}' '${VF}/deadlock/allreduce_pairs_one_slot.xml' >/dev/null || test $? -eq 10 && cat '${WITNESS_DIR}'/*allreduce_pairs_one_slot.xml.witness1.json")
set_tests_properties("cli: smt: --witness-dir writes one JSON file per witness" PROPERTIES TIMEOUT 300)
set(HIGHLIGHT_DIR ${CMAKE_CURRENT_BINARY_DIR}/smt-witness-highlight)
add_test(NAME "cli: smt: ccforge dot --highlight marks a witness's schedule on the program"
  COMMAND ${CCFORGE_EXPECT} 0 --has "fillcolor=gold" --has "color=goldenrod, penwidth=3"
    --has "fillcolor=white, color=red, penwidth=3" --has "the SMT witness's schedule, in order"
  -- bash -c "rm -rf '${HIGHLIGHT_DIR}' && '$<TARGET_FILE:ccforge>' verify --engine smt --slots 1 --witness-dir '${HIGHLIGHT_DIR}' '${VF}/deadlock/allreduce_pairs_one_slot.xml' >/dev/null || test $? -eq 10 && '$<TARGET_FILE:ccforge>' dot '${VF}/deadlock/allreduce_pairs_one_slot.xml' --highlight \"$(ls '${HIGHLIGHT_DIR}'/*.witness1.json)\"")
set_tests_properties("cli: smt: ccforge dot --highlight marks a witness's schedule on the program" PROPERTIES TIMEOUT 300)
