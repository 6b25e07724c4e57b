import assert from 'node:assert/strict';
import { canonicalLanguageTag, formatSelector } from '../../../infrastructure/extractor/format-selector.js';

describe('yt-dlp format selectors', () => {
  describe('video heights', () => {
    it('takes the best video no taller than the height with the original audio, then any audio, then a muxed format', () => {
      assert.equal(
        formatSelector('1080'),
        'bv*[height<=?1080]+ba[format_note*=original]/bv*[height<=?1080]+ba/b[height<=?1080]',
      );
      assert.equal(
        formatSelector('360'),
        'bv*[height<=?360]+ba[format_note*=original]/bv*[height<=?360]+ba/b[height<=?360]',
      );
    });

    it('uses the size cap instead of the named height', () => {
      assert.equal(
        formatSelector('720', undefined, 480),
        'bv*[height<=?480]+ba[format_note*=original]/bv*[height<=?480]+ba/b[height<=?480]',
      );
    });

    it('merges the requested language first, falling back to the original', () => {
      assert.equal(
        formatSelector('480', 'de'),
        'bv*[height<=?480]+ba[language^=de]/bv*[height<=?480]+ba[format_note*=original]/bv*[height<=?480]+ba/b[height<=?480]',
      );
    });
  });

  describe('audio', () => {
    it('audio and audio-mp3 take the best audio of the preferred track, else a muxed format', () => {
      assert.equal(formatSelector('audio'), 'ba[format_note*=original]/ba/b');
      assert.equal(formatSelector('audio-mp3', 'ja'), 'ba[language^=ja]/ba[format_note*=original]/ba/b');
    });

    it('audio-aac prefers AAC within each language preference; the language outranks the codec', () => {
      assert.equal(
        formatSelector('audio-aac'),
        'ba[format_note*=original][ext=m4a]/ba[format_note*=original][acodec^=mp4a]/ba[format_note*=original]/ba[ext=m4a]/ba[acodec^=mp4a]/ba/b[acodec^=mp4a]/b',
      );
      assert.equal(
        formatSelector('audio-aac', 'fr').split('/').slice(0, 4).join('/'),
        'ba[language^=fr][ext=m4a]/ba[language^=fr][acodec^=mp4a]/ba[language^=fr]/ba[format_note*=original][ext=m4a]',
      );
    });
  });

  describe('language tags', () => {
    it('are put in the case the platform reports them in, since yt-dlp compares case-sensitively', () => {
      assert.equal(canonicalLanguageTag('en'), 'en');
      assert.equal(canonicalLanguageTag('EN-us'), 'en-US');
      assert.equal(canonicalLanguageTag('ZH-hant-tw'), 'zh-Hant-TW');
      assert.equal(canonicalLanguageTag('es-419'), 'es-419');
      assert.equal(formatSelector('audio', 'PT-br'), 'ba[language^=pt-BR]/ba[format_note*=original]/ba/b');
    });

    it('are refused when they could break out of the selector', () => {
      for (const tag of ['en]/b[', 'en,de', 'e', 'en-', '', 'en US', 'de/ba', "en'"]) {
        assert.throws(() => formatSelector('audio', tag), RangeError, JSON.stringify(tag));
      }
    });
  });
});
