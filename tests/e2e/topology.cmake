# End-to-end tests of `ccforge topo`, `ccforge bounds` and `ccforge simulate`.
set(CCFORGE_E2E_DATA ${CMAKE_CURRENT_SOURCE_DIR}/data)

ccforge_cli_test("topo show dgx1" 0
  --has "^topology dgx1 " --has "vertices: 8 GPUs, 0 switches, 0 NICs in 1 box"
  --has "GPU egress: 150 GB/s on every GPU" --has "diameter: 2 steps"
  --has "automorphisms: 4 keeping bandwidth, alpha and link class. 48 ignoring them"
  -- topo show dgx1)
ccforge_cli_test("topo show json" 0
  --has "\"diameter_steps\": 1" --has "\"gpus\": 8" --has "\"switches\": 1" --has "\"order\": \"40320\""
  -- topo show a100-1 --format json)
ccforge_cli_test("topo show a spec file by path" 0
  --has "topology torus4x4 " --has "16 GPUs" --has "diameter: 4 steps" --has "automorphisms: 384 "
  -- topo show ${CCFORGE_E2E_DATA}/topo_torus.json)
ccforge_cli_test("topo show reports a disconnected topology" 0
  --has "diameter: none: a cannot reach c"
  -- topo show ${CCFORGE_E2E_DATA}/topo_disconnected.json)
ccforge_cli_test("topo show rejects zero bandwidth with a location" 2
  --has "topo_zero_bandwidth.json:4:44: error: /links/0/bw: bandwidth must be positive, got 0$"
  -- topo show ${CCFORGE_E2E_DATA}/topo_zero_bandwidth.json)
ccforge_cli_test("topo show of an unknown name" 2
  --has "dgx9:1:1: error: no such file, and not a catalog topology \\(a100-1, a100-2"
  -- topo show dgx9)
ccforge_cli_test("topo dot" 0
  --has "^digraph \"ndv2-2\" \\{" --has "subgraph cluster_box1" --has "\"b1.gpu0\" -> \"b0.gpu1\""
  -- topo dot ndv2-2)
ccforge_cli_test("topo list" 0
  --has "^a100-1: 8 GPUs" --has "mi250-2: 32 GPUs" --has "amd-z52: 8 GPUs"
  -- topo list)
ccforge_cli_test("topo without a subcommand is a usage error" 1 -- topo)

ccforge_cli_test("bounds dgx1 allgather" 0
  --has "allgather +2 +7/6 +171.43 +1200/7" --lacks "alltoall"
  -- bounds dgx1 allgather)
ccforge_cli_test("bounds json has the documented fields" 0
  --has "\"steps_lower_bound\": 2" --has "\"rounds_per_chunk_lower_bound\": \"8/3\""
  --has "\"algbw_upper_bound_GBps\": 75" --has "\"alltoall\": \\{" --has "\"broadcast\": \\{" --has "\"root\": 0"
  -- bounds dgx1 --format json)
ccforge_cli_test("bounds a100-4 allgather" 0 --has "allgather .* 266.67 +800/3" -- bounds a100-4 allgather)
ccforge_cli_test("bounds of a disconnected topology" 2
  --has "topo_disconnected.json:1:1: error: a cannot reach c, so allgather cannot complete"
  -- bounds ${CCFORGE_E2E_DATA}/topo_disconnected.json allgather)
ccforge_cli_test("bounds of a zero-bandwidth spec" 2 --has "bandwidth must be positive"
  -- bounds ${CCFORGE_E2E_DATA}/topo_zero_bandwidth.json)
ccforge_cli_test("bounds root out of range" 1 --has "root 8 is out of range: topology dgx1 has ranks 0 to 7"
  -- bounds dgx1 broadcast --root 8)
ccforge_cli_test("bounds of a custom collective are refused" 1 --has "no exact bound for custom" -- bounds dgx1 custom)
ccforge_cli_test("bounds of an unknown collective" 1 --has "unknown collective 'allgathr'" -- bounds dgx1 allgathr)

set(CCFORGE_IR ${PROJECT_SOURCE_DIR}/tests/fixtures/msccl-tools/valid)
# SCCL's (C,S,R) = (2,2,3) DGX-1 allgather claims T = R * (M/C) * beta, i.e. algbw 133.33 GB/s
# on 25 GB/s links; the simulator must confirm it at 1 GiB, where latency is negligible.
ccforge_cli_test("simulate SCCL's DGX-1 allgather meets its claimed bandwidth" 0
  --has "on dgx1: allgather, 8 ranks, Simple, 2 channels, arch none" --has "1 GiB +[0-9.]+ +13[23]\\.[0-9]+ +"
  -- simulate ${CCFORGE_IR}/sccl_allgather_dgx1_pareto_s2_r3_c2.xml dgx1 --arch none --sizes 1GB)
ccforge_cli_test("simulate json" 0
  --has "\"size_bytes\": 1048576" --has "\"algbw_GBps\": " --has "\"busbw_factor\": 1.75" --has "\"protocol\": \"LL128\""
  -- simulate ${CCFORGE_IR}/azure_allreduce_ring_a100_n8_ch4_i1_LL128.xml a100-1 --sizes 1MB --format json)
ccforge_cli_test("simulate default sizes run from 1 KiB to 1 GiB" 0
  --has " 1 KiB " --has " 512 MiB " --has " 1 GiB "
  -- simulate ${CCFORGE_IR}/allreduce_ring_a100_n4_ch1_i1_LL128.xml a100-1)
ccforge_cli_test("simulate reports a deadlock" 10
  --has "deadlock: no thread block can move" --has "rank 0 tb 0 step 0 \\(tile iteration 0\\): waits for data on connection 1->0 ch 0"
  -- simulate ${CCFORGE_E2E_DATA}/simulate_deadlock.xml dgx1 --sizes 1MB)
ccforge_cli_test("simulate: an unmapped rank pair is an error" 2
  --has "allgather_ring_simple_oop_n4.xml:63:5: error: connection rank 3 -> rank 0 \\(gpu3 -> gpu0\\) has no route in topology line4"
  -- simulate ${CCFORGE_IR}/allgather_ring_simple_oop_n4.xml ${CCFORGE_E2E_DATA}/topo_line4.json)
ccforge_cli_test("simulate: more ranks than GPUs" 2
  --has "the algorithm has 8 ranks but topology line4 has only 4 GPUs"
  -- simulate ${CCFORGE_IR}/sccl_allgather_dgx1_pareto_s2_r3_c2.xml ${CCFORGE_E2E_DATA}/topo_line4.json)
ccforge_cli_test("simulate: a zero-bandwidth topology" 2 --has "bandwidth must be positive"
  -- simulate ${CCFORGE_IR}/allgather_ring_simple_oop_n4.xml ${CCFORGE_E2E_DATA}/topo_zero_bandwidth.json)
ccforge_cli_test("simulate: bad sizes are a usage error" 1 --has "size '0' is zero"
  -- simulate ${CCFORGE_IR}/allgather_ring_simple_oop_n4.xml dgx1 --sizes 0)
ccforge_cli_test("simulate: the event limit is inconclusive" 5 --has "more than 50 events"
  -- simulate ${CCFORGE_IR}/allgather_ring_simple_oop_n4.xml dgx1 --sizes 1GB --max-events 50)
ccforge_cli_test("bounds --progress names each collective as it is bounded" 0
  --has "ccforge bounds: progress: \\[[0-9]+\\.[0-9] s\\] bounding allgather on dgx1"
  -- bounds --progress dgx1 allgather)
ccforge_cli_test("simulate --progress names the file, the topology and the sizes" 0
  --has "ccforge simulate: progress: \\[[0-9]+\\.[0-9] s\\] simulating .*sccl_allgather_dgx1_pareto_s2_r3_c2.xml on dgx1 at 1 size$"
  -- simulate --progress ${CCFORGE_IR}/sccl_allgather_dgx1_pareto_s2_r3_c2.xml dgx1 --sizes 1MB)
# The in-switch (NVLS) allreduce row where the spec's NVSwitches reduce, none elsewhere.
ccforge_cli_test("bounds h100-1 has the in-switch allreduce row" 0
  --has "^allreduce +2 +14/9 +257.14 +1800/7" --has "^allreduce \\(in-switch\\) +1 +8/9 +450.00 +450"
  -- bounds h100-1 allreduce)
ccforge_cli_test("bounds json names the in-switch bound" 0
  --has "\"allreduce_in_switch\": " --has "\"algbw_upper_bound_GBps_exact\": \"400\""
  -- bounds h100-2 allreduce --format json)
ccforge_cli_test("bounds a100-1 has no in-switch row" 0
  --has "^allreduce " --lacks "in-switch" -- bounds a100-1 allreduce)
