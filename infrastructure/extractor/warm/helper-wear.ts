import type { HelperProcess } from './helper-process.js';

/** When a helper is replaced although it still works; 0 turns a limit off. */
export interface HelperWearLimits {
  /** Lookups a helper answers before it is replaced. */
  maxLookups: number;
  /** Resident memory past which a helper is replaced after its lookup, in bytes. */
  maxResidentBytes: number;
}

/**
 * Why a helper should not serve again, or null when it may. One YoutubeDL
 * instance answering lookup after lookup keeps what its extractors cache and
 * the cookies every page set, so a long-lived helper only grows: replacing it
 * now and then costs one start (about a second) and bounds what it holds.
 */
export async function wornOut(helper: HelperProcess, limits: HelperWearLimits): Promise<string | null> {
  if (limits.maxLookups > 0 && helper.requests >= limits.maxLookups) return `${helper.requests} lookups answered`;
  if (limits.maxResidentBytes <= 0) return null;
  const resident = await helper.residentBytes();
  return resident !== null && resident > limits.maxResidentBytes
    ? `${Math.round(resident / 2 ** 20)} MiB resident`
    : null;
}
