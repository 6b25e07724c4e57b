/**
 * Request headers an extracted page may keep at rest: what yt-dlp needs to
 * fetch the media again and that names no one. Everything else (Cookie,
 * Authorization, tokens a platform's extractor adds) is dropped; the
 * download's own yt-dlp run adds the cookies of its jar again.
 */
const KEPT_HEADERS = new Set([
  'user-agent',
  'accept',
  'accept-language',
  'accept-encoding',
  'referer',
  'origin',
  'sec-fetch-mode',
]);

/** Fields that carry cookies as such, wherever yt-dlp puts them (the page, each format, each requested download). */
const SECRET_FIELDS = new Set(['cookies']);

/**
 * yt-dlp's `-J` output without the secrets it can carry: the `cookies` of the
 * page and of each format, and every request header but a few harmless
 * ones, at any depth. What the extracted-info cache stores.
 */
export function stripInfoSecrets(info: unknown): unknown {
  if (Array.isArray(info)) return info.map(stripInfoSecrets);
  if (info === null || typeof info !== 'object') return info;
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(info)) {
    if (SECRET_FIELDS.has(key)) continue;
    kept[key] = key === 'http_headers' ? keptHeaders(value) : stripInfoSecrets(value);
  }
  return kept;
}

function keptHeaders(headers: unknown): unknown {
  if (headers === null || typeof headers !== 'object' || Array.isArray(headers)) return undefined;
  return Object.fromEntries(
    Object.entries(headers).filter(
      ([name, value]) => KEPT_HEADERS.has(name.toLowerCase()) && typeof value === 'string',
    ),
  );
}
