// How the profiler flushes the L2 before each pass (KREPLAY_PROFILER_L2_FLUSH): the modes and the
// setting that picks one.
#pragma once

#include "drivers/cuda/profiler-setting.hpp"

namespace kreplay::cuda {

/** How the L2 is flushed before a pass (KREPLAY_PROFILER_L2_FLUSH). */
enum class L2Flush { None, Read, ReadEvictLast, Copy, ReadDiscard, WriteDiscardRead, WriteDiscard };

/**
 * How the L2 is flushed before each pass (KREPLAY_PROFILER_L2_FLUSH): `write-discard` (the default;
 * `on` names it too) writes a buffer twice the L2's size and drops its lines (`discard.global.L2`),
 * so that every line the restore or the run before left dirty is written back and the pass starts
 * with an L2 that holds no valid line, as ncu's invalidation leaves it. On an H200 it cut the
 * captured kernels that lts throughput alone kept from agreeing with 15 ncu runs from 4-8 of 26 to
 * 2-3 (the median of lts throughput read 1.7-1.9% below ncu's, where it read 0.5-1.4% above), and
 * the kernels that agreed rose from 8-13 to 14 and 16 (bench/examples/counter-experiment-h200, run 16).
 * `read` reads the buffer (the L2 left full of its clean lines; the default before), `evict-last`
 * reads it at the evict_last priority and sets it back to normal (an experiment: plain streaming
 * reads may be evicted first), `copy` has a copy engine read it into pinned host memory (an
 * experiment: nothing but the profiled kernel then runs on the multiprocessors between passes when
 * the restore is a copy too, as under ncu), `discard` reads it and then drops its lines (an
 * experiment), `write` writes the buffer, drops its lines and reads it (an experiment: the L2 left
 * full of clean lines none of which are the kernel's), `off` flushes nothing (to compare with
 * `ncu --cache-control none`).
 */
inline L2Flush l2FlushBeforeEachPass() {
  return profilerChoice("KREPLAY_PROFILER_L2_FLUSH", L2Flush::WriteDiscard,
                        {{"on", L2Flush::WriteDiscard},
                         {"write-discard", L2Flush::WriteDiscard},
                         {"read", L2Flush::Read},
                         {"off", L2Flush::None},
                         {"evict-last", L2Flush::ReadEvictLast},
                         {"copy", L2Flush::Copy},
                         {"discard", L2Flush::ReadDiscard},
                         {"write", L2Flush::WriteDiscardRead}});
}

}  // namespace kreplay::cuda
