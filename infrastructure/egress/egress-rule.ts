import { nonPublicRange } from '../security/webhook-url-policy.js';

export type EgressDecision = { ok: true; allowListed: boolean } | { ok: false; reason: string };

/** A target as the extractor names it: the host of the URL or CONNECT line, and its port. */
export interface EgressTarget {
  hostname: string;
  port: number;
}

/**
 * Whether the extractor may reach a target that resolved to `addresses`:
 * only when every address is public, or when the operator listed the target
 * (`host` for any port, or `host:port`). Judging every address, not just
 * the first, means a name cannot slip an internal address in beside a
 * public one; the proxy then connects only to the addresses judged here.
 */
export function judgeEgress(
  target: EgressTarget,
  addresses: readonly string[],
  allow: readonly string[],
): EgressDecision {
  if (isAllowListed(target, allow)) return { ok: true, allowListed: true };
  if (addresses.length === 0) return { ok: false, reason: `${describe(target)} did not resolve` };
  for (const address of addresses) {
    const range = nonPublicRange(address);
    if (range !== null)
      return {
        ok: false,
        reason: `${describe(target)} resolves to ${address}, a ${range} address, and is not on EGRESS_ALLOW`,
      };
  }
  return { ok: true, allowListed: false };
}

export function isAllowListed(target: EgressTarget, allow: readonly string[]): boolean {
  const host = bare(target.hostname);
  return allow.some((entry) => {
    const allowed = entry.trim().toLowerCase();
    return allowed === host || allowed === `${host}:${target.port}` || allowed === `[${host}]:${target.port}`;
  });
}

function describe(target: EgressTarget): string {
  const host = bare(target.hostname);
  return `${host.includes(':') ? `[${host}]` : host}:${target.port}`;
}

/** Lower case, without the brackets of an IPv6 literal or a trailing dot. */
function bare(hostname: string): string {
  const lower = hostname.toLowerCase().replace(/\.$/, '');
  return lower.startsWith('[') && lower.endsWith(']') ? lower.slice(1, -1) : lower;
}
