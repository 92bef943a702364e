// Input of test-print-allocation.mlir (partition-size).  A partitioned_shared tensor (AMD gfx1250) is one
// buffer per partition, each holding its groups' pieces; with partition-size the partitions of one tensor
// go to different physical partitions (64 KiB each on gfx1250), and other buffers fill the gaps.  The real
// 3.9.0 pass for gfx1250 (partition size 64 KiB) puts %regular at 2112 and needs 197,632 bytes.
// PART-LABEL: partitions
// PART-NEXT: offset = 2112, size = 1024
// pieces of 2104 elements padded [256:+8] = 4208 bytes / 4 pieces = 1052, two groups per partition
// PART-NEXT: offset = 0, size = 2104
// PART-NEXT: offset = 65536, size = 2104
// PART-NEXT: offset = 3136, size = 1024
// PART-NEXT: offset = 67648, size = 1024
// PART-NEXT: offset = 131072, size = 1024
// PART-NEXT: offset = 196608, size = 1024
// PART-NEXT: size = 197632
// Without partitions (the option's default, as Triton's test pass) the pieces are packed one after another.
// ONE-LABEL: partitions
// ONE-NEXT: offset = 4224, size = 1024
// ONE-NEXT: offset = 0, size = 2104
// ONE-NEXT: offset = 2112, size = 2104
// ONE: size = 9344

#S = #ttg.swizzled_shared<{vec = 2, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#PAD = #ttg.padded_shared<[256:+8] {order = [1, 0], shape = [16, 32]}>
#P2 = #ttg.partitioned_shared<{numPartitions = 2, numGroups = 2, partitionDim = 0, partitionLayout = #PAD}>
#P4 = #ttg.partitioned_shared<{numPartitions = 4, numGroups = 1, partitionDim = 0, partitionLayout = #S}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx1250", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @partitions() {
    %regular = ttg.local_alloc : () -> !ttg.memdesc<32x16xf16, #S, #smem, mutable>
    %two = ttg.local_alloc : () -> !ttg.memdesc<64x32xf16, #P2, #smem, mutable>
    %four = ttg.local_alloc : () -> !ttg.memdesc<64x32xf16, #P4, #smem, mutable>
    ttg.local_dealloc %regular : !ttg.memdesc<32x16xf16, #S, #smem, mutable>
    ttg.local_dealloc %two : !ttg.memdesc<64x32xf16, #P2, #smem, mutable>
    ttg.local_dealloc %four : !ttg.memdesc<64x32xf16, #P4, #smem, mutable>
    tt.return
  }
}
