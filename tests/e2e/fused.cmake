# Fused computation + collective programs (docs/fused.md) through the command line: compile
# verifies them for ccforge-fused, verify picks that profile from the header, a mutation exits 10
# with its rule, the stock executor's profile refuses the header, simulate times compute steps
# on a topology that names its GPU, dot draws compute steps.
set(FUSED ${FIXTURES}/verify/fused)
set(FUSED_OUT ${CMAKE_CURRENT_BINARY_DIR}/fused-out)
file(MAKE_DIRECTORY ${FUSED_OUT})

ccforge_cli_test("fused: compile writes a verified GEMV + AllReduce program" 0
  --has "gemv-allreduce-r4-c2-remote-first: 4 ranks, .* steps. verified for ccforge-fused"
  -- compile gemv-allreduce ranks=4 chunks=2 order=1 -o ${FUSED_OUT}/gemv.xml)
ccforge_cli_test("fused: verify takes the ccforge-fused profile from the header" 0
  --has "note: profile ccforge-fused from the header \\(a fused program" --has "verdict: VERIFIED"
  -- verify ${FUSED}/gemv_allreduce_r2_c2.xml)
ccforge_cli_test("fused: a send without its producer's dependency exits 10 with fused.producer-order" 10
  --has "first_send_without_dependency.xml:[0-9]+:[0-9]+: error: gpu 0: 's' reads input chunk 2.* \\[fused.producer-order\\]$"
  -- verify ${FUSED}/first_send_without_dependency.xml)
ccforge_cli_test("fused: msccl-executor refuses a fused header" 10
  --has ": error: .*\\[format.fused-program\\]$"
  -- verify --profile msccl-executor ${FUSED}/gemv_allreduce_r2_c2.xml)
ccforge_cli_test("fused: simulate gives compute steps time on a GPU the topology names" 0
  --has "fused-allreduce, 2 ranks" --has "64 B +[1-9][0-9.]* "
  -- simulate ${FUSED}/gemv_allreduce_r2_c2.xml h100-1 --sizes 64)
ccforge_cli_test("fused: dot draws compute steps as blue boxes" 0
  --has "0: gemv rows 0..3 -> i\\[0\\]\", shape=box, style=\"filled\", fillcolor=lightskyblue"
  -- dot ${FUSED}/gemv_allreduce_r2_c2.xml)
ccforge_cli_test("fused: run --compute-first is a mode of the CUDA backend" 1
  --has "ccforge run: --compute-first is a mode of the CUDA backend"
  -- run ${FUSED}/gemv_allreduce_r2_c2.xml --compute-first)
ccforge_cli_test("fused: compile writes an embedding + All-to-All program" 0
  --has "embedding-alltoall-r2-c2: 2 ranks"
  -- compile embedding-alltoall ranks=2 chunks=2 -o ${FUSED_OUT}/embedding.xml)
ccforge_cli_test("fused: run checks an embedding + All-to-All program bit for bit against its plain reference" 0
  --has "verified \\(ccforge-fused profile, from the header\\)" --has "call: alltoall, 2 ranks, count 512 x f32"
  --has "check: passed: every output element equals the plain reference bit for bit"
  -- run ${FUSED_OUT}/embedding.xml --iters 1)
set_tests_properties("cli: fused: run checks an embedding + All-to-All program bit for bit against its plain reference"
  PROPERTIES DEPENDS "cli: fused: compile writes an embedding + All-to-All program")
ccforge_cli_test("fused: compile writes the 128-rank DLRM program (257 thread blocks per GPU with --max-tbs)" 0
  --has "embedding-alltoall-r128-c1-remote-first: 128 ranks, .* verified for ccforge-fused"
  -- compile embedding-alltoall ranks=128 chunks=1 computetbs=2 batch=256 dim=4 pooling=2 table=50 order=1 --max-tbs 300
     -o ${FUSED_OUT}/embedding128.xml)
ccforge_cli_test("fused: run --max-tbs loads the 128-rank program and checks it bit for bit" 0
  --has "check: passed: every output element equals the plain reference bit for bit"
  -- run ${FUSED_OUT}/embedding128.xml --max-tbs 300 --iters 1)
set_tests_properties("cli: fused: run --max-tbs loads the 128-rank program and checks it bit for bit"
  PROPERTIES DEPENDS "cli: fused: compile writes the 128-rank DLRM program (257 thread blocks per GPU with --max-tbs)")
ccforge_cli_test("fused: without --max-tbs run refuses the 128-rank program (co-residency)" 10
  --has "\\[limits.co-residency\\]"
  -- run ${FUSED_OUT}/embedding128.xml --iters 1)
set_tests_properties("cli: fused: without --max-tbs run refuses the 128-rank program (co-residency)"
  PROPERTIES DEPENDS "cli: fused: compile writes the 128-rank DLRM program (257 thread blocks per GPU with --max-tbs)")
