import { type MediaFormat, isVideoFormat } from '../../domain/media-format.js';

/** The request's language rule: a BCP-47 tag. Anything else could break out of a selector's brackets. */
const LANGUAGE_TAG = /^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/;

/**
 * The platform reports tags in canonical case (`en-US`, `pt-BR`, `zh-Hant`)
 * and yt-dlp's `^=` is case-sensitive, so `EN-us` is put in that case first.
 */
export function canonicalLanguageTag(tag: string): string {
  if (!LANGUAGE_TAG.test(tag)) throw new RangeError(`Not a language tag: ${JSON.stringify(tag)}`);
  const [language, ...subtags] = tag.split('-');
  return [
    language.toLowerCase(),
    ...subtags.map((subtag) =>
      subtag.length === 2
        ? subtag.toUpperCase()
        : subtag.length === 4
          ? subtag[0].toUpperCase() + subtag.slice(1).toLowerCase()
          : subtag.toLowerCase(),
    ),
  ].join('-');
}

/**
 * Audio filters in order of preference: the requested language by prefix
 * (`en` takes `en-US`), then the original track, then whatever yt-dlp ranks
 * best. The original is known by its note, the platform's track name
 * ("English original") or yt-dlp's "(original)" suffix; where neither exists,
 * yt-dlp's own ranking by `language_preference` is the best guess left.
 */
function audioFilters(language: string | undefined): string[] {
  const preferences = ['[format_note*=original]', ''];
  return language === undefined ? preferences : [`[language^=${canonicalLanguageTag(language)}]`, ...preferences];
}

/**
 * The `-f` selector for a format:
 * - a height: the best video no taller than it with the preferred audio, else the best muxed format no taller;
 *   `<=?` keeps formats of unknown height, which `<=` would drop;
 * - `audio`, `audio-mp3`: the preferred audio, else a muxed format to take the audio out of;
 * - `audio-aac`: AAC (m4a or mp4a) first within each language preference; the language outranks the codec, so a dub
 *   asked for in Opus beats the original in AAC, and is reported as `audio`.
 */
export function formatSelector(format: MediaFormat, language?: string, maxHeight?: number): string {
  const audio = audioFilters(language);
  if (isVideoFormat(format)) {
    const height = maxHeight ?? Number(format);
    return [...audio.map((filter) => `bv*[height<=?${height}]+ba${filter}`), `b[height<=?${height}]`].join('/');
  }
  if (format === 'audio-aac') {
    return [
      ...audio.flatMap((filter) => [`ba${filter}[ext=m4a]`, `ba${filter}[acodec^=mp4a]`, `ba${filter}`]),
      'b[acodec^=mp4a]',
      'b',
    ].join('/');
  }
  return [...audio.map((filter) => `ba${filter}`), 'b'].join('/');
}
