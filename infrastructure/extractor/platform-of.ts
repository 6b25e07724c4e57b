/**
 * The platform a URL belongs to, as access settings name it: the host name
 * without `www.`, `m.` or `music.`, and `youtu.be` as `youtube.com`
 * (`127.0.0.1` for the fixture platform). Null for what is not a URL.
 */
export function platformOf(url: string): string | null {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return null;
  }
  const bare = host.replace(/^(www|m|music)\./, '');
  return bare === 'youtu.be' ? 'youtube.com' : bare;
}

/** The entry for the platform, else the `*` entry that applies to every platform. */
export function forPlatform<T>(settings: Readonly<Record<string, T>>, platform: string | null): T | undefined {
  return (platform === null ? undefined : settings[platform]) ?? settings['*'];
}
