import { lookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { isPublicAddress } from '../security/webhook-url-policy.js';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Every address a name resolves to. Injected, so tests can point a public-looking name anywhere. */
export type ResolveHost = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: ResolveHost = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map(({ address, family }) => ({
    address,
    family: family === 6 ? 6 : 4,
  }));

/** A webhook host that resolves to (or is) an address webhooks must not reach. */
export class AddressRefusedError extends Error {
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(`${host === address ? 'address' : `${host} resolves to`} ${address}, which is not a public unicast address`);
    this.name = 'AddressRefusedError';
  }
}

/**
 * A socket `lookup` that resolves the name once, refuses the connection if
 * ANY of its addresses is not public unicast, and hands the socket exactly
 * the addresses it checked, so an answer that changes between check and
 * connect (DNS rebinding) is never dialled. Node calls it with
 * `{ all: true }` when it tries several addresses (autoSelectFamily); it is
 * never called for literal IP hosts, which the caller checks itself.
 */
export function checkedAddressLookup(resolve: ResolveHost, options: { requirePublic: boolean }): LookupFunction {
  return (hostname, lookupOptions, callback) => {
    resolve(hostname).then(
      (addresses) => {
        const wanted =
          lookupOptions.family === 4 || lookupOptions.family === 6
            ? addresses.filter((entry) => entry.family === lookupOptions.family)
            : addresses;
        if (wanted.length === 0) {
          callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
          return;
        }
        const refused = options.requirePublic ? addresses.find((entry) => !isPublicAddress(entry.address)) : undefined;
        if (refused !== undefined) {
          callback(new AddressRefusedError(hostname, refused.address), '', 0);
          return;
        }
        if (lookupOptions.all)
          callback(
            null,
            wanted.map(({ address, family }): LookupAddress => ({ address, family })),
          );
        else callback(null, wanted[0].address, wanted[0].family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}
