import assert from 'node:assert/strict';
import { parseChannelListing } from '../../../infrastructure/extractor/parse-channel-listing.js';
import { parseClientLinks } from '../../../infrastructure/extractor/parse-client-links.js';

describe('yt-dlp lookup output parsing', () => {
  describe('channel listings', () => {
    it('keeps the contract’s properties and the allowed others, filling the contract properties the extractor left out', () => {
      const listing = parseChannelListing(
        {
          _type: 'playlist',
          id: 'UCabc',
          title: 'Someone - Videos',
          uploader: 'Someone',
          uploader_url: 'https://www.youtube.com/@someone',
          channel_follower_count: 10,
          entries: [
            {
              _type: 'url',
              id: 'v1',
              url: 'https://www.youtube.com/watch?v=v1#__youtubedl_smuggle=%7B%7D',
              title: 'One',
              duration: 10,
              view_count: 5,
              channel: null,
              __x_forwarded_for_ip: null,
            },
            'not an entry',
            { id: 'v2', webpage_url: 'https://www.youtube.com/watch?v=v2', title: null, uploader: 'A guest' },
            { id: 'v3', url: 'https://www.youtube.com/watch?v=v3', title: 'Three' },
          ],
        },
        2,
      );
      assert.deepEqual(listing, {
        id: 'UCabc',
        title: 'Someone - Videos',
        uploader: 'Someone',
        uploader_url: 'https://www.youtube.com/@someone',
        channel_follower_count: 10,
        channel: 'Someone',
        channel_id: 'UCabc',
        channel_url: 'https://www.youtube.com/@someone',
        entries: [
          {
            id: 'v1',
            url: 'https://www.youtube.com/watch?v=v1',
            title: 'One',
            duration: 10,
            view_count: 5,
            channel: null,
            uploader: 'Someone',
          },
          { id: 'v2', title: '', url: 'https://www.youtube.com/watch?v=v2', uploader: 'A guest' },
        ],
      });
    });

    it('fills an uploader the entry leaves null, empty or out: its own channel first, then the listing uploader or channel', () => {
      const listing = parseChannelListing(
        {
          id: 'UCabc',
          title: 'Someone - Videos',
          channel: 'Someone',
          uploader: 'Someone (uploader)',
          entries: [
            { id: 'v1', url: 'https://www.youtube.com/watch?v=v1', title: 'One', uploader: null, channel: null },
            { id: 'v2', url: 'https://www.youtube.com/watch?v=v2', title: 'Two' },
            { id: 'v3', url: 'https://www.youtube.com/watch?v=v3', title: 'Three', uploader: '' },
            { id: 'v4', url: 'https://www.youtube.com/watch?v=v4', title: 'Four', channel: 'A guest' },
          ],
        },
        10,
      );
      assert.deepEqual(
        listing?.entries.map((entry) => entry.uploader),
        ['Someone (uploader)', 'Someone (uploader)', 'Someone (uploader)', 'A guest'],
      );
      const withoutUploader = parseChannelListing(
        { id: 'UCabc', channel: 'Someone', entries: [{ id: 'v1', url: 'u', title: 'One', uploader: null }] },
        10,
      );
      assert.equal(withoutUploader?.entries[0]?.uploader, 'Someone');
    });

    it('shows none of yt-dlp’s internals: versions, extractor names, original URLs, headers, or fields outside the allow list', () => {
      const listing = parseChannelListing(
        {
          _type: 'playlist',
          _version: { version: '2025.10.22', release_git_head: 'abc123', repository: 'yt-dlp/yt-dlp' },
          release_git_head: 'abc123',
          id: 'UCabc',
          title: 'Someone - Videos',
          channel: 'Someone',
          channel_id: 'UCabc',
          channel_url: 'https://www.youtube.com/channel/UCabc',
          extractor: 'youtube:tab',
          extractor_key: 'YoutubeTab',
          original_url: 'https://www.youtube.com/@someone/videos?internal=1',
          webpage_url_basename: 'videos',
          webpage_url_domain: 'youtube.com',
          epoch: 1_700_000_000,
          http_headers: { Cookie: 'secret' },
          description: 'About the channel',
          thumbnails: [
            {
              url: 'https://i.ytimg.com/a.jpg',
              width: 10,
              height: 10,
              http_headers: { Cookie: 'secret' },
              preference: 1,
            },
          ],
          entries: [
            {
              _type: 'url',
              ie_key: 'Youtube',
              id: 'v1',
              url: 'https://www.youtube.com/watch?v=v1',
              title: 'One',
              duration: 10,
              view_count: 5,
              uploader: 'Someone',
              live_status: 'not_live',
              http_headers: { Cookie: 'secret' },
              __x_forwarded_for_ip: '192.0.2.1',
              original_url: 'https://www.youtube.com/watch?v=v1&internal=1',
            },
          ],
        },
        5,
      );
      assert.deepEqual(listing, {
        id: 'UCabc',
        title: 'Someone - Videos',
        channel: 'Someone',
        channel_id: 'UCabc',
        channel_url: 'https://www.youtube.com/channel/UCabc',
        description: 'About the channel',
        thumbnails: [{ url: 'https://i.ytimg.com/a.jpg', width: 10, height: 10 }],
        entries: [
          {
            id: 'v1',
            url: 'https://www.youtube.com/watch?v=v1',
            title: 'One',
            duration: 10,
            view_count: 5,
            uploader: 'Someone',
            live_status: 'not_live',
          },
        ],
      });
    });

    it('is null for output that is not a listing', () => {
      assert.equal(parseChannelListing({ id: 'x', title: 'a video' }, 5), null);
      assert.equal(parseChannelListing(null, 5), null);
    });
  });

  describe('client links', () => {
    it('keeps direct links only, video before audio, each best first, with what is known of them', () => {
      const result = parseClientLinks({
        title: 't',
        duration: 12.5,
        uploader: 'Someone',
        uploader_url: 'https://example.com/@someone',
        thumbnail: 'https://example.com/t.jpg',
        description: '',
        formats: [
          { format_id: 'sb', url: 'https://cdn/sb', protocol: 'mhtml', vcodec: 'none', acodec: 'none' },
          {
            format_id: 'a1',
            url: 'https://cdn/a1',
            protocol: 'https',
            vcodec: 'none',
            acodec: 'opus',
            abr: 50.2,
            filesize: 100,
          },
          {
            format_id: 'a2',
            url: 'https://cdn/a2',
            protocol: 'https',
            vcodec: 'none',
            acodec: 'mp4a.40.2',
            abr: 129.5,
            filesize_approx: 300,
          },
          {
            format_id: 'hls',
            url: 'https://cdn/x.m3u8',
            protocol: 'm3u8_native',
            vcodec: 'avc1',
            acodec: 'mp4a',
            height: 1080,
          },
          {
            format_id: 'v360',
            url: 'https://cdn/v360',
            protocol: 'https',
            vcodec: 'avc1',
            acodec: 'mp4a',
            width: 640,
            height: 360,
            filesize: 1000,
          },
          {
            format_id: 'v720',
            url: 'https://cdn/v720',
            protocol: 'https',
            vcodec: 'avc1',
            acodec: 'none',
            width: 1280,
            height: 720,
          },
          {
            format_id: 'v720m',
            url: 'https://cdn/v720m',
            protocol: 'https',
            vcodec: 'avc1',
            acodec: 'mp4a',
            width: 1280,
            height: 720,
          },
        ],
      });
      assert.deepEqual(result, {
        title: 't',
        duration: 12.5,
        author: 'Someone',
        authorUrl: 'https://example.com/@someone',
        thumbnailUrl: 'https://example.com/t.jpg',
        links: [
          { url: 'https://cdn/v720m', type: 'video', hasAudio: true, width: 1280, height: 720 },
          { url: 'https://cdn/v720', type: 'video', hasAudio: false, width: 1280, height: 720 },
          { url: 'https://cdn/v360', type: 'video', hasAudio: true, width: 640, height: 360, sizeBytes: 1000 },
          { url: 'https://cdn/a2', type: 'audio', hasAudio: true, audioBitrate: 130, sizeBytes: 300 },
          { url: 'https://cdn/a1', type: 'audio', hasAudio: true, audioBitrate: 50, sizeBytes: 100 },
        ],
      });
    });

    it('takes a video without formats as its one link, codecs unknown counting as present', () => {
      const result = parseClientLinks({
        title: 't',
        url: 'http://host/media.mp4#__youtubedl_smuggle=x',
        protocol: 'http',
        width: 640,
        height: 360,
        duration: null,
      });
      assert.deepEqual(result, {
        title: 't',
        duration: 0,
        links: [{ url: 'http://host/media.mp4', type: 'video', hasAudio: true, width: 640, height: 360 }],
      });
    });
  });
});
