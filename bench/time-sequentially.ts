/**
 * Times `request` `total` times, one after another: latency of single
 * operations (a submission, say), not load. Load comes from wrk in a process
 * of its own (see wrk.ts).
 */
export async function timeSequentially(
  total: number,
  request: () => Promise<void>,
): Promise<{ p50: number; p99: number }> {
  const latencies: number[] = [];
  for (let done = 0; done < total; done++) {
    const started = performance.now();
    await request();
    latencies.push(performance.now() - started);
  }
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
  return { p50: at(0.5), p99: at(0.99) };
}

export const ms = (value: number) => `${value.toFixed(2)} ms`;
