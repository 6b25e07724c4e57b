import assert from 'node:assert/strict';
import {
  DEFAULT_CLIENT_DOWNLOAD_HOSTS,
  parseClientDownloadUrl,
  type ClientDownloadPlatform,
  type ClientDownloadUrlRules,
} from '../../domain/client-download-url.js';

const rules = DEFAULT_CLIENT_DOWNLOAD_HOSTS;
const FORMS =
  'url must be a link to a video on a supported platform, such as https://www.youtube.com/watch?v=<id>, https://www.youtube.com/shorts/<id>, ' +
  'https://www.instagram.com/reel/<id>, https://www.tiktok.com/@<user>/video/<id>, https://www.facebook.com/<page>/videos/<id>';

function accepted(
  url: string,
  platform: ClientDownloadPlatform,
  id: string,
  shortLink = false,
  given: ClientDownloadUrlRules = rules,
): void {
  const result = parseClientDownloadUrl(url, given);
  assert.ok(result.ok, url);
  const { canonicalUrl: _canonical, ...rest } = result;
  assert.deepEqual(rest, { ok: true, platform, id, shortLink, url }, url);
}

/** What the extractor is given for a link the client submitted. */
function extractorUrl(url: string, given: ClientDownloadUrlRules = rules): string {
  const result = parseClientDownloadUrl(url, given);
  assert.ok(result.ok, url);
  return result.canonicalUrl;
}

const SMUGGLED = '#__youtubedl_smuggle=%7B%22http_headers%22%3A+%7B%22Host%22%3A+%22canary.invalid%22%7D%7D';

function reason(url: string, given: ClientDownloadUrlRules = rules): string {
  const result = parseClientDownloadUrl(url, given);
  assert.equal(result.ok, false, `expected ${url} to be refused`);
  return result.ok ? '' : result.reason;
}

describe('client-download URLs', () => {
  it('accepts the video platform forms, shorts included', () => {
    accepted('https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'video-platform', 'dQw4w9WgXcQ');
    accepted('https://youtu.be/dQw4w9WgXcQ', 'video-platform', 'dQw4w9WgXcQ');
    accepted('https://m.youtube.com/live/dQw4w9WgXcQ', 'video-platform', 'dQw4w9WgXcQ');
    accepted('https://www.youtube.com/shorts/dQw4w9WgXcQ', 'video-platform', 'dQw4w9WgXcQ');
    accepted('https://youtube.com/shorts/dQw4w9WgXcQ?feature=share', 'video-platform', 'dQw4w9WgXcQ');
  });

  it('accepts the photo/video sharing platform forms', () => {
    for (const kind of ['p', 'reel', 'reels', 'tv']) {
      accepted(`https://www.instagram.com/${kind}/C0abc-DE_fg/`, 'photo-sharing', 'C0abc-DE_fg');
      accepted(`https://instagram.com/${kind}/C0abcDEfg?igsh=xyz`, 'photo-sharing', 'C0abcDEfg');
    }
  });

  it('accepts the short-video platform forms, share links included', () => {
    accepted('https://www.tiktok.com/@some.user_1/video/7312345678901234567', 'short-video', '7312345678901234567');
    accepted(
      'https://m.tiktok.com/@someone/video/7312345678901234567?is_from_webapp=1',
      'short-video',
      '7312345678901234567',
    );
    accepted('https://vm.tiktok.com/ZMabc123/', 'short-video', 'ZMabc123', true);
    accepted('https://vt.tiktok.com/ZSxyz789', 'short-video', 'ZSxyz789', true);
  });

  it('accepts the social network forms, whatever leads up to them, and share links', () => {
    accepted('https://www.facebook.com/SomePage/videos/1234567890/', 'social-network', '1234567890');
    accepted('https://www.facebook.com/videos/1234567890', 'social-network', '1234567890');
    accepted('https://www.facebook.com/some.page/posts/videos/1234567890', 'social-network', '1234567890');
    accepted('https://facebook.com/watch/1234567890', 'social-network', '1234567890');
    accepted('https://m.facebook.com/reel/1234567890', 'social-network', '1234567890');
    accepted('https://web.facebook.com/SomePage/reel/1234567890', 'social-network', '1234567890');
    accepted('https://www.facebook.com/watch/?v=1234567890', 'social-network', '1234567890');
    accepted('https://www.facebook.com/watch?v=1234567890', 'social-network', '1234567890');
    accepted('https://fb.watch/abcDEF123/', 'social-network', 'abcDEF123', true);
  });

  describe('the URL the extractor is given', () => {
    it('given a link with a smuggled fragment, when it is accepted, then the extractor gets the link without it', () => {
      assert.equal(
        extractorUrl(`https://www.instagram.com/p/C0abcDEfg/${SMUGGLED}`),
        'https://www.instagram.com/p/C0abcDEfg/',
      );
      assert.equal(
        extractorUrl(`https://www.tiktok.com/@someone/video/7312345678901234567${SMUGGLED}`),
        'https://www.tiktok.com/@someone/video/7312345678901234567',
      );
      assert.equal(extractorUrl(`https://vm.tiktok.com/ZMabc123/${SMUGGLED}`), 'https://vm.tiktok.com/ZMabc123/');
      assert.equal(
        extractorUrl(`https://www.facebook.com/SomePage/videos/1234567890${SMUGGLED}`),
        'https://www.facebook.com/SomePage/videos/1234567890',
      );
      assert.equal(
        extractorUrl(`https://www.youtube.com/shorts/dQw4w9WgXcQ${SMUGGLED}`),
        'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      );
    });

    it("given a link with extra query parameters, when it is accepted, then only the id's own parameter remains", () => {
      assert.equal(
        extractorUrl('https://instagram.com/reel/C0abcDEfg?igsh=xyz&__youtubedl_smuggle=1'),
        'https://instagram.com/reel/C0abcDEfg',
      );
      assert.equal(
        extractorUrl('https://m.tiktok.com/@someone/video/7312345678901234567?is_from_webapp=1'),
        'https://m.tiktok.com/@someone/video/7312345678901234567',
      );
      assert.equal(
        extractorUrl('https://www.facebook.com/watch/?v=1234567890&x=1#frag'),
        'https://www.facebook.com/watch/?v=1234567890',
      );
      assert.equal(
        extractorUrl('https://youtu.be/dQw4w9WgXcQ?si=abc#t=3'),
        'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      );
      assert.equal(
        extractorUrl('https://m.youtube.com/watch?feature=x&v=dQw4w9WgXcQ#x'),
        'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      );
    });

    it('given a link on a configured host, when it is accepted, then scheme, host and port stay as configured', () => {
      const local: ClientDownloadUrlRules = {
        videoPlatform: { hosts: ['127.0.0.1:9000'], shortHosts: [] },
        photoSharing: { hosts: ['127.0.0.1:9000'] },
        shortVideo: { hosts: [], shortHosts: [] },
        socialNetwork: { hosts: [], shortHosts: [] },
        schemes: ['http'],
      };
      assert.equal(
        extractorUrl(`http://127.0.0.1:9000/p/v-1080/${SMUGGLED}`, local),
        'http://127.0.0.1:9000/p/v-1080/',
      );
      assert.equal(
        extractorUrl(`http://127.0.0.1:9000/shorts/v-1080?a=b${SMUGGLED}`, local),
        'http://127.0.0.1:9000/watch?v=v-1080',
      );
    });
  });

  it('refuses other shapes on known hosts', () => {
    for (const url of [
      'https://www.youtube.com/embed/dQw4w9WgXcQ',
      'https://www.instagram.com/someuser/',
      'https://www.instagram.com/stories/someuser/123',
      'https://www.instagram.com/p/',
      'https://www.tiktok.com/@someone',
      'https://www.tiktok.com/someone/video/123',
      'https://www.tiktok.com/@someone/photo/123',
      'https://vm.tiktok.com/a/b',
      'https://www.facebook.com/SomePage',
      'https://www.facebook.com/SomePage/videos/',
      'https://www.facebook.com/watch',
      'https://www.facebook.com/watch/?v=a.b',
      'https://fb.watch/',
    ]) {
      assert.match(
        reason(url),
        /^url must be a link to a video on a supported platform, such as .* \(\/.* is not a video link this service supports\)$/,
        url,
      );
    }
  });

  it('refuses other hosts, schemes, credentials and non-URLs, naming the problem', () => {
    assert.equal(reason('https://vimeo.com/123'), `${FORMS} (vimeo.com is not a supported host)`);
    assert.equal(
      reason('https://www.instagram.com.evil.example/p/abc'),
      `${FORMS} (www.instagram.com.evil.example is not a supported host)`,
    );
    assert.equal(reason('http://www.instagram.com/p/abc'), `${FORMS} (the scheme must be https)`);
    assert.equal(reason('https://u:p@www.tiktok.com/@a/video/1'), `${FORMS} (credentials are not allowed)`);
    assert.equal(reason('not a url'), `${FORMS} (it contains spaces or control characters)`);
    assert.equal(reason('instagram.com/p/abc'), `${FORMS} (it is not an absolute URL)`);
  });

  it('follows configured hosts and schemes, trying each platform on a host several share', () => {
    const local = '127.0.0.1:9000';
    const shared: ClientDownloadUrlRules = {
      videoPlatform: { hosts: [local], shortHosts: [] },
      photoSharing: { hosts: [local] },
      shortVideo: { hosts: [local], shortHosts: [] },
      socialNetwork: { hosts: [local], shortHosts: [local] },
      schemes: ['http'],
    };
    accepted(`http://${local}/shorts/abc`, 'video-platform', 'abc', false, shared);
    accepted(`http://${local}/reel/abc`, 'photo-sharing', 'abc', false, shared);
    accepted(`http://${local}/@user/video/123`, 'short-video', '123', false, shared);
    accepted(`http://${local}/Page/videos/123`, 'social-network', '123', false, shared);
    accepted(`http://${local}/abc`, 'social-network', 'abc', true, shared);
    assert.match(reason(`https://${local}/reel/abc`, shared), /\(the scheme must be http\)$/);
  });
});
