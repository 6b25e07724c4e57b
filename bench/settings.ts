/** `npm run bench -- --quick` (or BENCH_QUICK=1): shorter loads and smaller stores, for a check rather than a figure. */
export const QUICK = process.argv.includes('--quick') || process.env.BENCH_QUICK === '1';

export const LOAD = {
  connections: 32,
  threads: 2,
  rounds: 3,
  durationSeconds: QUICK ? 2 : 8,
  warmupSeconds: QUICK ? 1 : 3,
};
