import { stat } from 'node:fs/promises';

/** The cookies file and the operator's proxy a lookup of a platform is to use (see PlatformAccess.helperChoice). */
export interface HelperChoice {
  cookiesFile?: string;
  upstreamProxy?: string;
}

/**
 * What a helper runs with. A helper keeps its proxy for its life (yt-dlp
 * reads it once), so a lookup is served only by a helper started with the
 * same cookies file and proxy; the file's contents it reads again when the
 * file changed (see WarmExtractor).
 */
export interface HelperSettings extends HelperChoice {
  /** The cookies file as it was read: its modification time and size, which a replaced or edited file changes. */
  cookiesVersion?: string;
}

/** The choice, with the cookies file's version as it is now. */
export async function helperSettingsNow(choice: HelperChoice): Promise<HelperSettings> {
  if (choice.cookiesFile === undefined) return choice;
  const cookiesVersion = await stat(choice.cookiesFile).then(
    (file) => `${file.mtimeMs}:${file.size}`,
    () => 'missing',
  );
  return { ...choice, cookiesVersion };
}

/** Equal for settings one helper can serve. */
export function helperKey(settings: HelperSettings): string {
  return JSON.stringify([settings.cookiesFile ?? null, settings.upstreamProxy ?? null]);
}

/** The cookies a page was extracted with, for the extracted-page store: none, or this file as it was then. */
export function cookieIdentity(settings: HelperSettings): string {
  return settings.cookiesFile === undefined ? 'no cookies' : `${settings.cookiesFile}@${settings.cookiesVersion}`;
}
