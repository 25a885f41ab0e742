# End-to-end tests of `ccforge synth` (SMT method). Expected frontiers and verdicts: SCCL's
# (targets.md) and the exact bounds (docs/bounds.md).
set(SYNTH_OUT ${CMAKE_CURRENT_BINARY_DIR}/synth_out)

# (6,3,7) has nchunksperloop 8 x 6 = 48, which divides no power-of-two count: it is not written.
# Its power-of-two substitute (4,3,5) (R/C 5/4) is, from where the cost model makes it faster
# than (2,2,3): 3 x 0.7 + (5/4)(M/8) x 4e-5 = 2 x 0.7 + (3/2)(M/8) x 4e-5 at M = 560,000 bytes;
# it serves up to the bound of its tile iterations (32 chunks x 65,536 iterations x 2 MiB tiles
# = 2^42 bytes, docs/msccl-ir.md). Both call forms of each. --all-windows: the frontier compared
# among itself (against NCCL no point clears the bar on the DGX-1, below).
ccforge_cli_test("synth dgx1 allgather pareto: SCCL's frontier, the deployable points written" 0
  --has "\\(C,S,R\\) = \\(2,2,3\\) +R/C 3/2 .*out-of-place: verified, written to [^ ]*dgx1-allgather-c2-s2-r3.xml for 0..559999 bytes"
  --has "\\(C,S,R\\) = \\(2,2,3\\) +R/C 3/2 .*in-place: verified, written to [^ ]*dgx1-allgather-c2-s2-r3-inplace.xml for 0..559999 bytes"
  --has "\\(C,S,R\\) = \\(4,3,5\\) +R/C 5/4 +\\(power-of-two C for \\(6,3,7\\)\\) .*out-of-place: verified, written to [^ ]*dgx1-allgather-c4-s3-r5.xml for 560000..4398046511104 bytes"
  --has "\\(C,S,R\\) = \\(4,3,5\\) .*in-place: verified, written to [^ ]*dgx1-allgather-c4-s3-r5-inplace.xml for 560000..4398046511104 bytes"
  --has "\\(C,S,R\\) = \\(6,3,7\\) +R/C 7/6 .*verified, not written: nchunksperloop=48 divides count\\*8 for no power-of-two count. it serves only counts that are multiples of 6 \\(under the internal scheduler\\)"
  --has "ccforge synth: \\(3,2,4\\) unsat" --has "ccforge synth: \\(6,2,7\\) unsat"
  --lacks "\\(C,S,R\\) = \\(1,2,2\\)" --lacks "incomplete"
  -- synth dgx1 allgather --pareto -o ${SYNTH_OUT}/ag --all-windows)
# Against NCCL (the default): (2,2,3) is 2 steps against NCCL's 7-step rings, but at no size of
# 1 KiB..4 GiB is it predicted to beat NCCL on the DGX-1 by the gain the model's error asks for.
ccforge_cli_test("synth -o writes a file only where it beats NCCL by more than the model's error" 0
  --has "\\(C,S,R\\) = \\(2,2,3\\) .*out-of-place: verified, not written: at no size of its window is it predicted to beat NCCL by the gain needed there \\(at best 0\\.[0-9]+ of it\\)"
  --has "^ccforge synth: warning: no file written to [^ ]*/gate: none of the 2 programs found can be deployed there$"
  --has "^ccforge synth: warning: \\(C,S,R\\) = \\(2,2,3\\) out-of-place: not written: at no size of its window is it predicted to beat NCCL"
  --has "^ccforge synth: warning: \\(C,S,R\\) = \\(2,2,3\\) in-place: not written: at no size of its window"
  -- synth dgx1 allgather --chunks 2 --steps 2 --rounds 3 -o ${SYNTH_OUT}/gate)
# Issue 32: a run that writes nothing exits 0 (what it found verifies) with the warning in the
# report as well: the index in DIR/report/ counts the files and carries the same lines.
dsl_shell_test("synth -o that writes no file says so in the index too" 0
  --has "\"files_written\": 0" --has "\"warnings\": .$"
  --has "\"no file written to [^\"]*/gate-index: none of the 2 programs found can be deployed there\""
  --has "\"\\(C,S,R\\) = \\(2,2,3\\) out-of-place: not written: at no size of its window"
  --has "^report$" --lacks "\\.xml$"
  -- "rm -rf ${SYNTH_OUT}/gate-index && $CCFORGE synth dgx1 allgather --chunks 2 --steps 2 --rounds 3 -o ${SYNTH_OUT}/gate-index 2>/dev/null >/dev/null && ls ${SYNTH_OUT}/gate-index && cat ${SYNTH_OUT}/gate-index/report/dgx1-allgather.json")
ccforge_cli_test("synth dgx1 reducescatter pareto: same frontier" 0
  --has "\\(C,S,R\\) = \\(2,2,3\\)" --has "\\(C,S,R\\) = \\(6,3,7\\)" --lacks "incomplete"
  -- synth dgx1 reducescatter)
ccforge_cli_test("synth json has the documented shape" 0
  --has "\"frontier\": " --has "\"chunks\": 1," --has "\"steps\": 1," --has "\"rounds\": 1,"
  --has "\"file\": null" --has "\"min_bytes\": 0," --has "\"max_bytes\": "
  --has "\"instances\": " --has "\"result\": \"sat\"" --has "\"seconds\": "
  -- synth ${CCFORGE_E2E_DATA}/synth_fc4.json allgather --format json --all-windows)
ccforge_cli_test("synth one instance, cvc5" 0
  --has "\\(C,S,R\\) = \\(2,2,3\\)" -- synth dgx1 allgather --chunks 2 --steps 2 --rounds 3 --solver cvc5)
ccforge_cli_test("synth one unsat instance exits 10" 10
  --has "\\(3,2,4\\) unsat" --has "no schedule found" -- synth dgx1 allgather --chunks 3 --steps 2 --rounds 4)
ccforge_cli_test("synth an instance the bounds rule out is pruned" 10
  --has "\\(6,2,6\\) pruned .*rounds per chunk 1 below the lower bound 7/6" --has "pruned 1"
  -- synth dgx1 allgather --chunks 6 --steps 2 --rounds 6)
ccforge_cli_test("synth fewer steps than the bound is pruned" 10
  --has "\\(1,1,1\\) pruned .*fewer steps than the lower bound 2" -- synth dgx1 allgather --chunks 1 --steps 1 --rounds 1)
ccforge_cli_test("synth alltoall least steps: (8,2,3)" 0
  --has "\\(C,S,R\\) = \\(8,2,3\\)" -- synth dgx1 alltoall --least-steps)
ccforge_cli_test("synth rounds below steps is a usage error" 1
  --has "rounds \\(2\\) must be at least steps \\(3\\)" -- synth dgx1 allgather --chunks 1 --steps 3 --rounds 2)
ccforge_cli_test("synth root out of range is a usage error" 1
  --has "root 9 is out of range for 8 GPUs" -- synth dgx1 broadcast:9)
# Allreduce = reducescatter + allgather, each (C,S,R), as (C,2S,2R): SCCL's allgather frontier
# (2,2,3), (6,3,7) doubled (the DGX-1's reducescatter has the same verdicts, its links being
# symmetric); (3,4,8) is unsat as allgather (3,2,4) is.
ccforge_cli_test("synth dgx1 allreduce pareto: the allgather frontier doubled, verified" 0
  --has "bounds: steps >= 4, rounds per chunk >= 7/3"
  --has "\\(C,S,R\\) = \\(2,4,6\\) +R/C 3 .*verified, written to"
  --has "\\(C,S,R\\) = \\(6,6,14\\) +R/C 7/3 .*verified, not written: nchunksperloop=48"
  --has "ccforge synth: \\(3,4,8\\) unsat" --lacks "incomplete"
  -- synth dgx1 allreduce --pareto -o ${SYNTH_OUT}/ar --all-windows)
ccforge_cli_test("synth dgx1 allreduce single instance (2,4,6)" 0
  --has "\\(C,S,R\\) = \\(2,4,6\\) .*verified" -- synth dgx1 allreduce --chunks 2 --steps 4 --rounds 6)
ccforge_cli_test("synth allreduce with odd steps is a usage error" 1
  --has "steps and rounds must be even" -- synth dgx1 allreduce --chunks 2 --steps 5 --rounds 6)
ccforge_cli_test("synth custom is not offered by the SMT method" 1
  --has "cannot synthesize custom" -- synth dgx1 custom)
ccforge_cli_test("synth of a disconnected topology" 2
  --has "a cannot reach c" -- synth ${CCFORGE_E2E_DATA}/topo_disconnected.json allgather)
ccforge_cli_test("synth of a zero-bandwidth spec" 2
  --has "bandwidth must be positive" -- synth ${CCFORGE_E2E_DATA}/topo_zero_bandwidth.json allgather)
ccforge_cli_test("synth with a partial instance is a usage error" 1
  --has "needs all of --chunks, --steps and --rounds" -- synth dgx1 allgather --steps 2)

# Determinism: two runs write byte-identical files.
add_test(NAME "cli: synth output is byte-identical on re-run"
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/synth_determinism.sh $<TARGET_FILE:ccforge> ${SYNTH_OUT}/det)
set_tests_properties("cli: synth output is byte-identical on re-run" PROPERTIES TIMEOUT 300)

# The other collectives on the DGX-1 complete within their limits. SCCL found gather (6,2,7)
# (targets.md); scatter is its reverse on the DGX-1's symmetric links; both meet the bounds
# (2 steps, 7/6 rounds per chunk), so nothing can dominate them.
ccforge_cli_test("synth dgx1 gather root 0" 0
  --has "\\(C,S,R\\) = \\(6,2,7\\) +R/C 7/6" --lacks "incomplete" -- synth dgx1 gather:0 --timeout 120)
ccforge_cli_test("synth dgx1 scatter root 0" 0
  --has "\\(C,S,R\\) = \\(6,2,7\\) +R/C 7/6" --lacks "incomplete" -- synth dgx1 scatter:0 --timeout 120)
# Broadcast: 2 steps (the root's eccentricity); R >= S and C <= 6 (the bound 1/6's denominator)
# limit the search, which must finish.
ccforge_cli_test("synth dgx1 broadcast root 0 finishes" 0
  --has "\\(C,S,R\\) = \\([0-9]+,2,[0-9]+\\)" --lacks "incomplete" -- synth dgx1 broadcast:0 --timeout 120)
# Bandwidth-optimal alltoall: R/C at the bound 8/3 (docs/bounds.md), within the limit. About 5 s
# of CPU on an idle machine; the per-instance limit leaves room for a loaded test run.
ccforge_cli_test("synth dgx1 alltoall bandwidth-optimal meets the bound" 0
  --has "R/C 8/3 " -- synth dgx1 alltoall --bandwidth-optimal --timeout 200 --instance-timeout 120)
ccforge_cli_test("synth a time limit is respected and reported" 5
  --has "unknown" --has "incomplete: " -- synth dgx1 allgather --chunks 6 --steps 3 --rounds 7 --timeout 0.05)
# --progress (docs/synth.md): the phases, each instance as it begins, with the elapsed time, on
# stderr; without it (stderr not a terminal, as under ctest) none.
ccforge_cli_test("synth --progress names the phases and the instance being solved, with the elapsed time" 0
  --has "ccforge synth: progress: \\[[0-9]+\\.[0-9] s\\] loading topology dgx1"
  --has "ccforge synth: progress: \\[[0-9]+\\.[0-9] s\\] computing the lower bounds on dgx1"
  --has "ccforge synth: progress: \\[[0-9]+\\.[0-9] s\\] solving instance \\(2,2,3\\)"
  --has "ccforge synth: progress: \\[[0-9]+\\.[0-9] s\\] compiling and verifying 1 frontier program"
  -- synth --progress dgx1 allgather --chunks 2 --steps 2 --rounds 3)
ccforge_cli_test("synth without --progress and a terminal prints no progress" 0
  --has "\\(C,S,R\\) = \\(2,2,3\\)" --lacks "progress:"
  -- synth dgx1 allgather --chunks 2 --steps 2 --rounds 3)
add_test(NAME "cli: synth -o writes a directory that verify accepts with no flag"
  COMMAND ${CCFORGE_EXPECT} 0 --has "note: profile msccl-executor from the header" --has "1 of 1 files verified|verdict: VERIFIED"
  --lacks "VIOLATION|INCONCLUSIVE"
  -- sh -c "rm -rf '${SYNTH_OUT}/plain' && '$<TARGET_FILE:ccforge>' synth dgx1 allgather --chunks 2 --steps 2 --rounds 3 -o '${SYNTH_OUT}/plain' --all-windows > /dev/null && '$<TARGET_FILE:ccforge>' verify '${SYNTH_OUT}/plain'")
set_tests_properties("cli: synth -o writes a directory that verify accepts with no flag" PROPERTIES TIMEOUT 300)

# Power-of-two substitutes (docs/synth.md "Output directories"): the alltoall frontier is the
# bandwidth-optimal (24,2,8) alone, whose nchunksperloop 24 serves no power-of-two count; (8,2,3)
# (C a power of two and a multiple of the 8 GPUs) is written instead, for every size up to 1 TiB:
# its relays receive and send in thread blocks of their own (ncclize's layout), joined by
# dependency flags, which are safe up to nchunksperloop 8 x MSCCL_MAX_ITER tiles (docs/msccl-ir.md).
ccforge_cli_test("synth dgx1 alltoall writes the power-of-two substitute of (24,2,8)" 0
  --has "\\(C,S,R\\) = \\(24,2,8\\) +R/C 8/3 .*not written: nchunksperloop=24"
  --has "\\(C,S,R\\) = \\(8,2,3\\) +R/C 3 +\\(power-of-two C for \\(24,2,8\\)\\) .*out-of-place: verified, written to [^ ]*dgx1-alltoall-c8-s2-r3.xml for 0..1099511627776 bytes"
  --lacks "incomplete" --lacks "in-place"
  -- synth dgx1 alltoall -o ${SYNTH_OUT}/a2a --all-windows)
# The index: the run's JSON report without timings, files named relative to DIR.
add_test(NAME "cli: synth -o writes an index of the directory in report/"
  COMMAND ${CCFORGE_EXPECT} 0 --has "\"form\": \"in-place\"" --has "\"file\": \"dgx1-allgather-c2-s2-r3-inplace.xml\""
  --has "\"min_bytes\": 0" --has "\"result\": \"sat\"" --lacks "\"seconds\"" --lacks "synth_out/index"
  -- sh -c "rm -rf '${SYNTH_OUT}/index' && '$<TARGET_FILE:ccforge>' synth dgx1 allgather --chunks 2 --steps 2 --rounds 3 -o '${SYNTH_OUT}/index' --all-windows > /dev/null && cat '${SYNTH_OUT}/index/report/dgx1-allgather.json'")
set_tests_properties("cli: synth -o writes an index of the directory in report/" PROPERTIES TIMEOUT 300)
