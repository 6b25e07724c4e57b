import ipaddr from 'ipaddr.js';

export type WebhookUrlCheck = { ok: true } | { ok: false; reason: string };

export interface WebhookUrlPolicyOptions {
  /**
   * The operator's exemptions from the public-address rule, as `host` (any
   * port) or `host:port`; e.g. a local receiver in tests. Empty by default.
   */
  allowHosts?: readonly string[];
}

/** Names that only ever mean something inside a network (RFC 6761, RFC 6762 appendix G, common LAN suffixes). */
const LOCAL_NAMES = [
  'localhost',
  'local',
  'internal',
  'localdomain',
  'home.arpa',
  'lan',
  'intranet',
  'corp',
  'home',
  'private',
];

/** Special-use top-level names (RFC 6761, RFC 7686, RFC 9476) that never resolve on the public internet. */
const SPECIAL_USE_NAMES = ['test', 'invalid', 'example', 'onion', 'alt'];

/** A DNS label as a public host name spells it: letters, digits and inner hyphens, at most 63 characters (IDNs arrive as punycode). */
const HOST_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

const RANGE_WORDS: Record<string, string> = {
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  multicast: 'multicast',
  linkLocal: 'link-local',
  loopback: 'loopback',
  carrierGradeNat: 'carrier-grade NAT',
  private: 'private',
  uniqueLocal: 'private (unique local)',
  reserved: 'reserved',
};

/**
 * Why an address must not receive webhooks (nor the extractor's requests,
 * see the egress rule), or null for a public unicast one. IPv4 addresses hidden in IPv6 (mapped) are judged as the IPv4 they
 * carry; every other IPv6 address must be global unicast (2000::/3), which
 * also refuses the old IPv4-compatible form, NAT64, 6to4 and Teredo.
 */
export function nonPublicRange(text: string): string | null {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  let address: ipaddr.IPv4 | ipaddr.IPv6;
  // Resolved addresses come as dotted quads; other IPv4 spellings are not what a resolver returns, so they are not trusted.
  if (ipaddr.IPv4.isValidFourPartDecimal(bare)) address = ipaddr.IPv4.parse(bare);
  else if (ipaddr.IPv6.isValid(bare)) address = ipaddr.IPv6.parse(bare);
  else return 'not an IP address';
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress())
    address = (address as ipaddr.IPv6).toIPv4Address();
  const range = address.range();
  if (range !== 'unicast') return RANGE_WORDS[range] ?? `special-purpose (${range})`;
  if (address.kind() === 'ipv6' && (address.toByteArray()[0] & 0xe0) !== 0x20) return 'not global unicast';
  return null;
}

/**
 * True for an address a webhook may be delivered to. The sender checks the
 * address it actually connects to with this, after resolving the host name:
 * checkWebhookUrl does not resolve names, so a name can point anywhere by
 * the time of delivery (DNS rebinding).
 */
export function isPublicAddress(ip: string): boolean {
  return nonPublicRange(ip) === null;
}

/**
 * Checks a webhook URL when a job is submitted: http(s) only, no
 * credentials, no port 0, no literal non-public address in any spelling, a
 * well-formed host name that is neither local nor special-use. A public-looking name is accepted without resolving it (it may not
 * resolve yet); see isPublicAddress for the check at delivery.
 */
export function checkWebhookUrl(input: string, options: WebhookUrlPolicyOptions = {}): WebhookUrlCheck {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return refuse('must be an absolute http:// or https:// URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return refuse('must use http:// or https://');
  if (url.username !== '' || url.password !== '') return refuse('must not contain credentials');
  if (url.port === '0') return refuse('must not use port 0');
  if (isAllowlisted(url, options.allowHosts ?? [])) return { ok: true };

  // WHATWG parsing has already turned decimal, hex, octal, short and full-width IPv4 spellings into a dotted quad, and bracketed IPv6 into its shortest form.
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  if (host.startsWith('[') || ipaddr.IPv4.isValidFourPartDecimal(host)) {
    const range = nonPublicRange(host);
    return range === null ? { ok: true } : refuse(`must not point to a non-public address (${host} is ${range})`);
  }
  if (host.length > 253 || !host.split('.').every((label) => HOST_LABEL.test(label)))
    return refuse('must have a well-formed host name (labels of letters, digits and inner hyphens, none empty)');
  if (LOCAL_NAMES.some((name) => host === name || host.endsWith(`.${name}`)))
    return refuse(`must not point to a local or internal host name (${host})`);
  if (!host.includes('.')) return refuse(`must use a fully qualified public host name (${host} is a single label)`);
  if (SPECIAL_USE_NAMES.some((name) => host.endsWith(`.${name}`)))
    return refuse(`must not use a special-use domain that never resolves publicly (${host})`);
  return { ok: true };
}

function refuse(rule: string): WebhookUrlCheck {
  return { ok: false, reason: `webhookUrl ${rule}` };
}

export function isAllowlisted(url: URL, allowHosts: readonly string[]): boolean {
  if (allowHosts.length === 0) return false;
  const hostname = url.hostname.toLowerCase();
  const port = url.port !== '' ? url.port : url.protocol === 'https:' ? '443' : '80';
  return allowHosts.some((entry) => {
    const allowed = entry.trim().toLowerCase();
    return allowed === hostname || allowed === `${hostname}:${port}`;
  });
}
