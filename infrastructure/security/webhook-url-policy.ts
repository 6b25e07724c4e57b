import ipaddr from 'ipaddr.js';

export type WebhookUrlCheck = { ok: true } | { ok: false; reason: string };

const BLOCKED_SUFFIXES = ['.localhost', '.local', '.internal', '.lan', '.home.arpa', '.localdomain'];

/**
 * Only public unicast addresses may receive webhooks: loopback, private,
 * link-local, carrier-grade NAT, multicast, reserved and the like are all
 * refused, including IPv4 hidden inside IPv6.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range() === 'unicast';
}

/**
 * Checks a webhook URL before it is accepted. Host names are not resolved
 * here (a name that does not resolve now may later); the sender must check
 * the address it actually connects to with isPublicAddress, which also stops
 * DNS rebinding.
 * `allowHosts` (host or host:port) is the operator's allowlist, empty by default.
 */
export function checkWebhookUrl(input: string, options: { allowHosts?: readonly string[] } = {}): WebhookUrlCheck {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return { ok: false, reason: 'webhookUrl must be an absolute http:// or https:// URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, reason: 'webhookUrl must use http:// or https://' };
  if (url.username !== '' || url.password !== '') return { ok: false, reason: 'webhookUrl must not contain credentials' };
  const allow = options.allowHosts ?? [];
  if (allow.includes(url.host.toLowerCase()) || allow.includes(url.hostname.toLowerCase())) return { ok: true };
  // WHATWG parsing already turned decimal, hex, octal and short IPv4 spellings into dotted quads.
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase().replace(/\.$/, '');
  if (ipaddr.isValid(host)) {
    return isPublicAddress(host) ? { ok: true } : { ok: false, reason: 'webhookUrl must not point to a loopback, private, link-local or reserved address' };
  }
  if (!host.includes('.')) return { ok: false, reason: 'webhookUrl must use a fully qualified public host name' };
  if (host === 'localhost' || BLOCKED_SUFFIXES.some((suffix) => host.endsWith(suffix))) {
    return { ok: false, reason: 'webhookUrl must not point to a local or internal host name' };
  }
  return { ok: true };
}
