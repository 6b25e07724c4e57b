import type { EnvReader } from './env-reader.js';
import type { ConfigSection } from './section.js';

/**
 * The settings of the sections that features declare in their own folders, read from the same environment as the
 * shared sections, each once. The service reads every feature's section before it starts, so a bad value stops it
 * as early as a shared one.
 */
export class FeatureSettings {
  private readonly settings = new Map<ConfigSection<unknown>, unknown>();

  constructor(private readonly env: EnvReader) {}

  of<T>(section: ConfigSection<T>): T {
    if (!this.settings.has(section)) this.settings.set(section, section.read(this.env));
    return this.settings.get(section) as T;
  }
}
