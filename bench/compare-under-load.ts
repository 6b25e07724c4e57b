import { type LoadOptions, type LoadResult, loadWithWrk } from './wrk.js';

export interface Comparison {
  subject: LoadResult;
  baseline: LoadResult;
  throughputRatio: number;
  p99Ratio: number;
}

type Target = Pick<LoadOptions, 'url' | 'headers'>;

/**
 * Loads the subject and its baseline with the same wrk settings, alternating
 * which goes first in each round, and takes each side's median round (by
 * requests per second; the p99 is that of the median p99 round).
 */
export async function compareUnderLoad(
  subject: Target,
  baseline: Target,
  load: Omit<LoadOptions, 'url' | 'headers'> & { rounds: number; warmupSeconds: number },
): Promise<Comparison> {
  const settings = { connections: load.connections, threads: load.threads };
  await loadWithWrk({ ...baseline, ...settings, durationSeconds: load.warmupSeconds });
  await loadWithWrk({ ...subject, ...settings, durationSeconds: load.warmupSeconds });
  const subjectRounds: LoadResult[] = [];
  const baselineRounds: LoadResult[] = [];
  for (let round = 0; round < load.rounds; round += 1) {
    const order: Array<[Target, LoadResult[]]> = [
      [baseline, baselineRounds],
      [subject, subjectRounds],
    ];
    if (round % 2 === 1) order.reverse();
    for (const [target, results] of order)
      results.push(await loadWithWrk({ ...target, ...settings, durationSeconds: load.durationSeconds }));
  }
  const subjectMedian = median(subjectRounds);
  const baselineMedian = median(baselineRounds);
  return {
    subject: subjectMedian,
    baseline: baselineMedian,
    throughputRatio: subjectMedian.requestsPerSecond / baselineMedian.requestsPerSecond,
    p99Ratio: subjectMedian.p99 / baselineMedian.p99,
  };
}

function median(results: LoadResult[]): LoadResult {
  const middle = Math.floor(results.length / 2);
  const byThroughput = [...results].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond)[middle];
  const byP99 = [...results].sort((a, b) => a.p99 - b.p99)[middle];
  const byP50 = [...results].sort((a, b) => a.p50 - b.p50)[middle];
  return {
    requestsPerSecond: byThroughput.requestsPerSecond,
    p50: byP50.p50,
    p99: byP99.p99,
    requests: byThroughput.requests,
  };
}

export function describeLoad(result: LoadResult): string {
  return `${result.requestsPerSecond.toFixed(0)} req/s p50 ${result.p50.toFixed(2)} ms p99 ${result.p99.toFixed(2)} ms`;
}

export function describeComparison(label: string, baselineLabel: string, comparison: Comparison): string {
  return (
    `${label}: ${describeLoad(comparison.subject)}; ${baselineLabel} ${describeLoad(comparison.baseline)}; ` +
    `throughput ratio ${comparison.throughputRatio.toFixed(2)}, p99 ratio ${comparison.p99Ratio.toFixed(2)}`
  );
}
