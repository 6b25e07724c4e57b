import { parseArgs } from 'node:util';

export interface SoakOptions {
  seed: number;
  /** How long submissions and faults go on. */
  durationMs: number;
  /** The bound on the quiet period after it, in which every job must end. */
  quietMs: number;
  /** Keep the run's directory (logs, databases) instead of removing it. */
  keep: boolean;
  /** NATS as a 3-node JetStream cluster, the work stream replicated on all three, and a node killed as a fault. */
  cluster: boolean;
}

/** `--seed N`, `--duration 15m` (ms, s, m or h), `--short` (2 minutes), `--keep`, `--cluster`. */
export function parseSoakOptions(argv: string[]): SoakOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      seed: { type: 'string' },
      duration: { type: 'string' },
      short: { type: 'boolean' },
      keep: { type: 'boolean' },
      cluster: { type: 'boolean' },
    },
    strict: true,
  });
  const seed = values.seed === undefined ? Math.floor(Math.random() * 1_000_000) : Number(values.seed);
  if (!Number.isInteger(seed) || seed < 0) throw new Error(`--seed must be a whole number, got "${values.seed}"`);
  const durationMs = values.duration !== undefined ? parseDuration(values.duration) : values.short ? 120_000 : 900_000;
  return {
    seed,
    durationMs,
    quietMs: Math.max(120_000, Math.min(300_000, durationMs / 3)),
    keep: values.keep === true,
    cluster: values.cluster === true,
  };
}

function parseDuration(text: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (match === null) throw new Error(`--duration must look like 90s, 2m or 15m, got "${text}"`);
  const unit = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 }[match[2] ?? 's'] as number;
  const ms = Number(match[1]) * unit;
  if (ms < 30_000) throw new Error('--duration must be at least 30s');
  return ms;
}
