/** `npm run bench -- --quick` (or BENCH_QUICK=1): shorter loads and smaller stores, for a check rather than a figure. */
export const QUICK = process.argv.includes('--quick') || process.env.BENCH_QUICK === '1';

export const LOAD = {
  connections: 32,
  threads: 2,
  // A p99 from one 8 s round on two shared cores moves by a third from round to round: five rounds steady the median.
  rounds: QUICK ? 3 : 5,
  durationSeconds: QUICK ? 2 : 8,
  warmupSeconds: QUICK ? 1 : 3,
};

const BENCHMARKS = [
  'submit',
  'polling',
  'file-serving',
  'projection-lag',
  'polling-at-scale',
  'whole-job',
  'many-jobs',
  'batch-playlist',
  'subscription-checks',
  'worker-backlog',
  'replay',
  'event-streams',
  'idle-cost',
  'jetstream',
  'store-size',
] as const;
export type Benchmark = (typeof BENCHMARKS)[number];

/** `npm run bench -- --only replay,projection-lag` (or BENCH_ONLY): run just those, to iterate on one figure. */
export function selectedBenchmarks(argv = process.argv, env = process.env): Set<Benchmark> {
  const flag = argv.indexOf('--only');
  const listed = flag >= 0 ? argv[flag + 1] : env.BENCH_ONLY;
  if (listed === undefined || listed === '') return new Set(BENCHMARKS);
  const names = listed.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !(BENCHMARKS as readonly string[]).includes(name));
  if (unknown.length > 0) throw new Error(`Unknown benchmark ${unknown.join(', ')}; known: ${BENCHMARKS.join(', ')}`);
  return new Set(names as Benchmark[]);
}
