# Process groups (docs/synth.md, "Process groups"): synth, simulate and bounds on the topology a
# communicator over some of a machine's GPUs sees.
add_test(NAME "cli: process groups: DP 64 and TP 8 of 512 H100 GPUs synthesized, verified, simulated on the machine"
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/process_groups.sh $<TARGET_FILE:ccforge>
          ${FIXTURES}/topology-dumps/h100-ibm-cloud-gx3d.xml)
set_tests_properties("cli: process groups: DP 64 and TP 8 of 512 H100 GPUs synthesized, verified, simulated on the machine"
  PROPERTIES TIMEOUT 600)
ccforge_cli_test("process groups: a rank the machine lacks is a usage error" 1
  --has "ccforge synth: rank 16 of the group is not a rank of a100-2 \\(it has 16 GPUs, 0 to 15\\)"
  -- synth a100-2 allgather --ranks 0,16)
ccforge_cli_test("process groups: ranks out of order are a usage error" 1
  --has "bounds: --ranks 8,0: rank 0 comes after 8, list each rank once, in increasing order"
  -- bounds a100-2 allgather --ranks 8,0)
ccforge_cli_test("process groups: --ranks and --group-size exclude each other" 1
  --has "excludes --group-size"
  -- synth a100-2 allgather --ranks 0,8 --group-size 2)
ccforge_cli_test("process groups: --group-stride needs --group-size" 1
  --has "requires --group-size"
  -- synth a100-2 allgather --group-stride 8)
# One GPU per box: NCCL's ring crosses no NVLink, its NIC (25 GB/s) alone bounds it; busbw near
# 25 GB/s, not the 0.1 GB/s of a ring search that found no channel.
ccforge_cli_test("process groups: NCCL's ring over one GPU per box runs at its NIC's speed" 0
  --has "# NCCL's choice:" --has "^ +1073741824 +33554432 +float +none +-1 +[0-9.]+ +2[0-9]\\.[0-9]+ +2[0-4]\\.[0-9]+ "
  -- simulate --nccl allgather a100-8 --group-size 8 --group-stride 8 -b 1G)
ccforge_cli_test("process groups: the text report names the group" 0
  --has "process group of 2 ranks of a100-2 \\(16 GPUs\\), in 2 boxes: machine ranks 0,8"
  --has "tree packing, 2 GPUs"
  -- synth a100-2 allgather --ranks 0,8 --composition trees)
