# nccl-tests-style sweeps of `ccforge run` and `ccforge simulate` (-b/-e/-f): a script parses
# the table as a user's script would (nccl_tests_table.sh states what it checks).
set(TABLE_IR ${FIXTURES}/msccl-tools/valid)
function(ccforge_table_test name code sizes skipped na per)
  add_test(NAME "cli: ${name}"
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/nccl_tests_table.sh ${code} ${sizes} ${skipped} ${na} ${per} -- $<TARGET_FILE:ccforge> ${ARGN})
  set_tests_properties("cli: ${name}" PROPERTIES TIMEOUT 300)
endfunction()

# In-place-only allreduce ring (legacy header inplace="1"), nchunksperloop 4: 8 B is 2 floats, not
# a multiple of 4, so that row is skipped; out-of-place is N/A.
ccforge_table_test("run: nccl-tests table of an in-place allreduce" 0 8,32,128,512,2048,8192 1 out-of-place 1
  run ${TABLE_IR}/allreduce_ring_a100_n4_ch1_i1_LL128.xml -b 8 -e 8K -f 4 --iters 2)
ccforge_table_test("simulate: nccl-tests table of an in-place allreduce" 0 8,32,128,512,2048,8192 1 out-of-place 1
  simulate ${TABLE_IR}/allreduce_ring_a100_n4_ch1_i1_LL128.xml a100-1 -b 8 -e 8K -f 4)
# Out-of-place allgather on 4 ranks: 8 B is not a float per rank, skipped; in-place is N/A.
ccforge_table_test("simulate: nccl-tests table of an out-of-place allgather" 0 8,64,512,4096,32768,262144,2097152 1 in-place 4
  simulate ${TABLE_IR}/allgather_ring_simple_oop_n4.xml a100-1 -b 8 -e 2M -f 8)

ccforge_cli_test("run: a sweep names the skip reason" 0
  --has "^ +8 +2 +float +sum +-1 +skipped: .*count 2 is not a multiple of nchunksperloop 4"
  --has "# Avg bus bandwidth +: [0-9.]+"
  -- run ${TABLE_IR}/allreduce_ring_a100_n4_ch1_i1_LL128.xml -b 8 -e 64 -f 8 --iters 1)
ccforge_cli_test("run: sweep as csv" 0
  --has "^size_bytes,count,type,redop,root,oop_status" --has "^64,16,float,sum,-1,n/a,,,,,,measured,"
  -- run ${TABLE_IR}/allreduce_ring_a100_n4_ch1_i1_LL128.xml -b 64 --iters 1 --format csv)
ccforge_cli_test("simulate: sweep as json" 0
  --has "\"size_bytes\": 1024" --has "\"status\": \"n/a\"" --has "\"avg_busbw_GBps\": [0-9.]+"
  -- simulate ${TABLE_IR}/allgather_ring_simple_oop_n4.xml a100-1 -b 1K --format json)
ccforge_cli_test("run: --count and -b together are a usage error" 1 --has "either --count or -b"
  -- run ${TABLE_IR}/allreduce_ring_a100_n4_ch1_i1_LL128.xml -b 1K --count 1024)
ccforge_cli_test("run: a bad sweep size is a usage error" 1 --has "-b: size '1KX': unknown unit 'KX'"
  -- run ${TABLE_IR}/allreduce_ring_a100_n4_ch1_i1_LL128.xml -b 1KX)
# One byte-size grammar (base/byte_size.hpp) in every command: 1KiB, 1KB and 1K are one size.
ccforge_cli_test("run: -b takes ccforge's sizes as nccl-tests' (1KiB is 1K)" 0 --has "^ +1024 +256 +float +sum"
  -- run ${TABLE_IR}/allreduce_ring_a100_n4_ch1_i1_LL128.xml -b 1KiB -e 1KB)
ccforge_cli_test("simulate: -b takes 1KB as nccl-tests' 1K" 0 --has "^ +1024 +64 +float"
  -- simulate ${TABLE_IR}/allgather_ring_simple_oop_n4.xml a100-1 -b 1KB)
ccforge_cli_test("simulate: --sizes takes nccl-tests' 1K as 1KB" 0 --has "1 KiB"
  -- simulate ${TABLE_IR}/allgather_ring_simple_oop_n4.xml a100-1 --sizes 1K)
ccforge_cli_test("simulate: --sizes and -b together are a usage error" 1 --has "either --sizes or -b"
  -- simulate ${TABLE_IR}/allgather_ring_simple_oop_n4.xml a100-1 -b 1K --sizes 1KB)
ccforge_cli_test("simulate: a sweep with nothing selectable prints the table and exits 1" 1
  --has "skipped:" --has "# Avg bus bandwidth +: N/A"
  -- simulate ${TABLE_IR}/allgather_ring_simple_oop_n4.xml a100-1 -b 4 -e 8)
# Allgather (m = 4 ranks): the run's count is size / 4 bytes / 4 ranks; every row runs and checks.
ccforge_table_test("run: nccl-tests table of an out-of-place allgather" 0 64,512,4096 0 in-place 4
  run ${TABLE_IR}/allgather_ring_simple_oop_n4.xml -b 64 -e 4K -f 8 --iters 1)
