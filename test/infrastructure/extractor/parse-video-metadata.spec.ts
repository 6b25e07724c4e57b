import assert from 'node:assert/strict';
import {
  audioTracks,
  parseVideoMetadata,
  type YtDlpFormat,
} from '../../../infrastructure/extractor/parse-video-metadata.js';

const audio = (language: string | null, note: string, languagePreference: number | null = null): YtDlpFormat => ({
  vcodec: 'none',
  acodec: 'opus',
  language,
  format_note: note,
  language_preference: languagePreference,
});
const video = (height: number): YtDlpFormat => ({
  vcodec: 'avc1.640028',
  acodec: 'none',
  height,
  language: null,
  format_note: `${height}p`,
});
const storyboard: YtDlpFormat = { vcodec: 'none', acodec: 'none', format_note: 'storyboard' };

describe('yt-dlp metadata parsing', () => {
  it('takes the title from fulltitle, which yt-dlp keeps free of the date it appends for live streams', () => {
    const metadata = parseVideoMetadata(
      { id: 'x', title: 'Launch 2026-01-01 12:00', fulltitle: 'Launch', duration: 10 },
      false,
    );
    assert.equal(metadata.title, 'Launch');
    assert.equal(parseVideoMetadata({ id: 'x', title: 'Only a title', duration: 10 }, false).title, 'Only a title');
  });

  it('rounds the duration up to whole seconds, ignoring float noise; an unknown duration is 0', () => {
    const duration = (value: number | null | undefined) =>
      parseVideoMetadata({ id: 'x', title: 't', duration: value }, false).duration;
    assert.equal(duration(6), 6);
    assert.equal(duration(6.038), 7);
    assert.equal(duration(212.0000001), 212);
    assert.equal(duration(0.4), 1);
    assert.equal(duration(null), 0);
    assert.equal(duration(undefined), 0);
  });

  it('reads the live status, from is_live where live_status is missing', () => {
    const status = (info: { live_status?: string | null; is_live?: boolean | null }) =>
      parseVideoMetadata({ id: 'x', title: 't', ...info }, false).liveStatus;
    for (const value of ['not_live', 'is_live', 'is_upcoming', 'was_live', 'post_live'])
      assert.equal(status({ live_status: value }), value);
    assert.equal(status({ is_live: true }), 'is_live');
    assert.equal(status({}), null, 'the generic extractor sets neither');
    assert.equal(status({ live_status: 'something_new' }), null);
  });

  it('keeps string tags only, and lists audio tracks only when asked', () => {
    const info = {
      id: 'x',
      title: 't',
      duration: 1,
      tags: ['music', 7, 'nodownload'],
      formats: [audio('en', 'English original')],
    };
    assert.deepEqual(parseVideoMetadata(info, false).tags, ['music', 'nodownload']);
    assert.equal(parseVideoMetadata(info, false).audioTracks, undefined);
    assert.deepEqual(parseVideoMetadata(info, true).audioTracks, [{ type: 'original', language: 'en' }]);
    assert.deepEqual(parseVideoMetadata({ id: 'x', title: 't' }, false).tags, []);
  });

  describe('audio tracks', () => {
    it('current yt-dlp on YouTube: the original has language_preference 10 and says so in its note', () => {
      const formats = [
        storyboard,
        video(1080),
        audio('fr-FR', 'French (FR), medium', -1),
        audio('en-US', 'English (US) original (default), medium', 10),
        audio('en-US', 'English (US) original (default), low', 10),
        audio('de-DE', 'German (DE), medium', -1),
      ];
      assert.deepEqual(audioTracks(formats), [
        { type: 'original', language: 'en-US' },
        { type: 'dubbed', language: 'fr-FR' },
        { type: 'dubbed', language: 'de-DE' },
      ]);
    });

    it('a dub can be the default: "original" in the note wins over language_preference', () => {
      const formats = [
        audio('ja', 'Japanese original, low', 10),
        audio('en-US', 'English (United States) (default), medium', 5),
      ];
      assert.deepEqual(audioTracks(formats), [
        { type: 'original', language: 'ja' },
        { type: 'dubbed', language: 'en-US' },
      ]);
    });

    it('2023 yt-dlp marks only the default track (language_preference 10), which is the best guess left', () => {
      const formats = [audio('es', 'Spanish, medium', -1), audio('en', 'English (default), medium', 10)];
      assert.deepEqual(audioTracks(formats), [
        { type: 'original', language: 'en' },
        { type: 'dubbed', language: 'es' },
      ]);
    });

    it('HLS renditions: the rendition name tells the original from the dub', () => {
      const formats = [
        video(720),
        audio('en-US', 'English (United States) original'),
        audio('de-DE', 'German (Germany) dubbed-auto'),
      ];
      assert.deepEqual(audioTracks(formats), [
        { type: 'original', language: 'en-US' },
        { type: 'dubbed', language: 'de-DE' },
      ]);
    });

    it('leaves out audio-description tracks', () => {
      const formats = [audio('en', 'English original', 10), audio('en-desc', 'English descriptive', -10)];
      assert.deepEqual(audioTracks(formats), [{ type: 'original', language: 'en' }]);
    });

    it('one unmarked language is the original; several without any marker are all dubs', () => {
      assert.deepEqual(audioTracks([audio(null, 'medium'), audio(null, 'low')]), [
        { type: 'original', language: null },
      ]);
      assert.deepEqual(audioTracks([audio('en', 'a'), audio('fr', 'b')]), [
        { type: 'dubbed', language: 'en' },
        { type: 'dubbed', language: 'fr' },
      ]);
    });

    it('a single muxed format (the generic extractor on a plain MP4) is one original track of unknown language', () => {
      assert.deepEqual(audioTracks([{ format_id: '0', ext: 'mp4', vcodec: null, acodec: null }]), [
        { type: 'original', language: null },
      ]);
    });

    it('video without audio has no tracks', () => {
      assert.deepEqual(audioTracks([video(720), storyboard]), []);
    });
  });
});
