/** A megabyte is 10^6 bytes, the unit the plan's `bandwidth_mb` counts in. */
export const BYTES_PER_MB = 1_000_000;

/** Every download counts at least this much. */
export const MINIMUM_CHARGE_MB = 20;

/** Megabytes charged for a file: whole megabytes, rounded up, never below the minimum. */
export function chargeableMegabytes(fileSizeBytes: number): number {
  return Math.max(MINIMUM_CHARGE_MB, Math.ceil(fileSizeBytes / BYTES_PER_MB));
}
