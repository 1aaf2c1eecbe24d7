// Preloaded (`node --import ./bench/loop-probe.mjs …`) into a server under a
// benchmark: records the event loop's delay, and on SIGUSR2 writes its
// percentiles (ms) and the heap/RSS to LOOP_PROBE_FILE, then starts afresh.
import { writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const file = process.env.LOOP_PROBE_FILE;
if (file) {
  let histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  process.on('SIGUSR2', () => {
    const ms = (ns) => Number((ns / 1e6).toFixed(2));
    writeFileSync(
      file,
      JSON.stringify({ p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max), rss: process.memoryUsage.rss() }),
    );
    histogram.disable();
    histogram = monitorEventLoopDelay({ resolution: 5 });
    histogram.enable();
  });
}
