/** Runs `request` `total` times with `concurrency` in flight; returns throughput and latency percentiles. */
export async function measure(total: number, concurrency: number, request: () => Promise<void>): Promise<{ perSecond: number; p50: number; p99: number }> {
  const latencies: number[] = [];
  let started = 0;
  const begin = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (started < total) {
        started += 1;
        const t0 = performance.now();
        await request();
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const elapsed = (performance.now() - begin) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
  return { perSecond: total / elapsed, p50: at(0.5), p99: at(0.99) };
}

export const ms = (value: number) => `${value.toFixed(2)} ms`;
