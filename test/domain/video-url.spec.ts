import assert from 'node:assert/strict';
import { DEFAULT_SHORT_HOSTS, DEFAULT_VIDEO_HOSTS, parseVideoUrl, type VideoUrlRules } from '../../domain/video-url.js';

const rules: VideoUrlRules = { videoHosts: DEFAULT_VIDEO_HOSTS, shortHosts: DEFAULT_SHORT_HOSTS };
const FORMS =
  'url must be a video URL of the form https://www.youtube.com/watch?v=<id>, https://youtu.be/<id> or https://www.youtube.com/live/<id>';

function reason(url: string, given: VideoUrlRules = rules): string {
  const result = parseVideoUrl(url, given);
  assert.equal(result.ok, false, `expected ${url} to be refused`);
  return result.ok ? '' : result.reason;
}

describe('video platform URLs', () => {
  it('accepts the watch, short and live forms on every default host, keeping the URL as given', () => {
    const id = 'dQw4w9WgXcQ';
    const cases: Array<[string, string]> = [
      [`https://www.youtube.com/watch?v=${id}`, 'watch'],
      [`https://youtube.com/watch?v=${id}&t=42s&list=PL1`, 'watch'],
      [`https://m.youtube.com/watch?feature=share&v=${id}`, 'watch'],
      [`https://music.youtube.com/watch?v=${id}`, 'watch'],
      [`https://youtu.be/${id}`, 'short'],
      [`https://youtu.be/${id}?si=abc123`, 'short'],
      [`https://youtu.be/${id}/`, 'short'],
      [`https://www.youtube.com/live/${id}`, 'live'],
      [`https://www.youtube.com/live/${id}?feature=share`, 'live'],
      [`https://WWW.YouTube.com/watch?v=${id}#t=10`, 'watch'],
      [`https://www.youtube.com:443/watch?v=${id}`, 'watch'],
    ];
    for (const [url, form] of cases) {
      assert.deepEqual(
        parseVideoUrl(url, rules),
        { ok: true, videoId: id, url, canonicalUrl: `https://www.youtube.com/watch?v=${id}`, form },
        url,
      );
    }
  });

  it('accepts ids of other lengths made of the id alphabet', () => {
    for (const id of ['a', 'A_b-9', 'clip-0000001'])
      assert.equal(parseVideoUrl(`https://youtu.be/${id}`, rules).ok, true, id);
  });

  it('takes /shorts/ only when allowed, as client-download lookups do', () => {
    const url = 'https://www.youtube.com/shorts/dQw4w9WgXcQ';
    assert.equal(reason(url), `${FORMS} (/shorts/dQw4w9WgXcQ is not a video path)`);
    const result = parseVideoUrl(url, { ...rules, allowShorts: true });
    assert.deepEqual(result, {
      ok: true,
      videoId: 'dQw4w9WgXcQ',
      url,
      canonicalUrl: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      form: 'shorts',
    });
    assert.match(reason('nope', { ...rules, allowShorts: true }), /or https:\/\/www\.youtube\.com\/shorts\/<id> \(/);
  });

  it('refuses with the accepted forms and what is wrong', () => {
    const cases: Array<[string, string]> = [
      ['nope', 'it is not an absolute URL'],
      ['/watch?v=abc', 'it is not an absolute URL'],
      [' https://youtu.be/abc', 'it contains spaces or control characters'],
      ['https://youtu.be/abc\n', 'it contains spaces or control characters'],
      ['http://www.youtube.com/watch?v=abc', 'the scheme must be https'],
      ['ftp://www.youtube.com/watch?v=abc', 'the scheme must be https'],
      ['https://user:pass@www.youtube.com/watch?v=abc', 'credentials are not allowed'],
      ['https://evil.example/watch?v=abc', 'evil.example is not a supported host'],
      ['https://www.youtube.com.evil.example/watch?v=abc', 'www.youtube.com.evil.example is not a supported host'],
      ['https://www.youtube.com:8443/watch?v=abc', 'www.youtube.com:8443 is not a supported host'],
      ['https://youtu.be.evil.example/abc', 'youtu.be.evil.example is not a supported host'],
      ['https://www.youtube.com/watch', 'the video id is missing'],
      ['https://www.youtube.com/watch?v=', 'the video id is missing'],
      ['https://www.youtube.com/watch?list=PL1', 'the video id is missing'],
      ['https://www.youtube.com/watch?v=a%20b', 'the video id is malformed'],
      ['https://www.youtube.com/watch?v=a/b', 'the video id is malformed'],
      [`https://youtu.be/${'a'.repeat(65)}`, 'the video id is malformed'],
      ['https://youtu.be/a.b', 'the video id is malformed'],
      ['https://www.youtube.com/', '/ is not a video path'],
      ['https://www.youtube.com/dQw4w9WgXcQ', '/dQw4w9WgXcQ is not a video path'],
      ['https://www.youtube.com/embed/dQw4w9WgXcQ', '/embed/dQw4w9WgXcQ is not a video path'],
      ['https://www.youtube.com/live/', '/live/ is not a video path'],
      ['https://www.youtube.com/live//abc', '/live//abc is not a video path'],
      ['https://www.youtube.com/live/abc/extra', '/live/abc/extra is not a video path'],
      ['https://youtu.be/', '/ is not a video path'],
      ['https://youtu.be/a/b', '/a/b is not a video path'],
    ];
    for (const [url, problem] of cases) assert.equal(reason(url), `${FORMS} (${problem})`, url);
  });

  it('reads a short host path as an id, even one spelled like a video-host path', () => {
    assert.equal(parseVideoUrl('https://youtu.be/watch?v=abc', rules).ok, true);
  });

  it('follows configured hosts and schemes, such as a local stand-in of the platform', () => {
    const local = { videoHosts: ['127.0.0.1:8123'], shortHosts: ['127.0.0.1:8123'], schemes: ['http'] };
    assert.deepEqual(parseVideoUrl('http://127.0.0.1:8123/watch?v=clip-1', local), {
      ok: true,
      videoId: 'clip-1',
      url: 'http://127.0.0.1:8123/watch?v=clip-1',
      canonicalUrl: 'http://127.0.0.1:8123/watch?v=clip-1',
      form: 'watch',
    });
    assert.equal(parseVideoUrl('http://127.0.0.1:8123/clip-1', local).ok, true);
    assert.equal(parseVideoUrl('http://127.0.0.1:8123/live/clip-1', local).ok, true);
    // On a host that is both, /watch without v is a watch link missing its id, not a short link to "watch".
    assert.equal(
      reason('http://127.0.0.1:8123/watch', local),
      'url must be a video URL of the form http://127.0.0.1:8123/watch?v=<id>, http://127.0.0.1:8123/<id> or http://127.0.0.1:8123/live/<id> (the video id is missing)',
    );
    assert.match(reason('https://127.0.0.1:8123/watch?v=clip-1', local), /\(the scheme must be http\)$/);
    assert.match(
      reason('http://127.0.0.1:8124/watch?v=clip-1', local),
      /\(127\.0\.0\.1:8124 is not a supported host\)$/,
    );
  });

  it('matches configured hosts in any letter case and names only the configured forms', () => {
    const onlyShort = { videoHosts: [], shortHosts: ['Short.Example'] };
    assert.equal(parseVideoUrl('https://short.example/abc', onlyShort).ok, true);
    assert.equal(
      reason('https://other.example/abc', onlyShort),
      'url must be a video URL of the form https://short.example/<id> (other.example is not a supported host)',
    );
  });

  it('canonicalises every form to the first scheme and video host', () => {
    const result = parseVideoUrl('https://youtu.be/abc', { videoHosts: ['m.youtube.com'], shortHosts: ['youtu.be'] });
    assert.equal(result.ok && result.canonicalUrl, 'https://m.youtube.com/watch?v=abc');
    const twoSchemes = { videoHosts: ['www.youtube.com'], shortHosts: ['youtu.be'], schemes: ['https', 'http'] };
    const plain = parseVideoUrl('http://youtu.be/abc?t=3', twoSchemes);
    assert.equal(plain.ok && plain.canonicalUrl, 'https://www.youtube.com/watch?v=abc');
    const noisy = parseVideoUrl('https://WWW.YouTube.com/watch?feature=share&v=abc&probe=1#t=5', rules);
    assert.equal(noisy.ok && noisy.canonicalUrl, 'https://www.youtube.com/watch?v=abc');
  });

  it('refuses spellings the URL parser would rewrite into another URL', () => {
    const local = { videoHosts: ['127.0.0.1:47810'], shortHosts: [], schemes: ['http'] };
    const cases: Array<[string, string]> = [
      ['http:\\\\127.0.0.1:47810\\watch?v=abc', 'it contains a backslash'],
      ['http://127.0.0.1:47810\\watch?v=abc', 'it contains a backslash'],
      ['http:127.0.0.1:47810/watch?v=abc', 'it must begin with <scheme>://<host>'],
      ['http:/127.0.0.1:47810/watch?v=abc', 'it must begin with <scheme>://<host>'],
      ['http://%31%32%37.0.0.1:47810/watch?v=abc', 'its host is not written in its plain form'],
      ['http://2130706433:47810/watch?v=abc', 'its host is not written in its plain form'],
      ['http://0x7f.0.0.1:47810/watch?v=abc', 'its host is not written in its plain form'],
      ['http://127.1:47810/watch?v=abc', 'its host is not written in its plain form'],
      ['http://127.0.0.1:047810/watch?v=abc', 'its host is not written in its plain form'],
      ['http://127.0.0.1:47810/watch?v=abc&v=def', 'the video id is given more than once'],
      ['http://127.0.0.1:47810/watch?v=abc&v=abc', 'the video id is given more than once'],
    ];
    for (const [url, problem] of cases)
      assert.match(reason(url, local), new RegExp(`\\(${problem.replace(/[?<>()]/g, '\\$&')}\\)$`), url);
    assert.match(reason('https://www.youtube.com:0443/watch?v=abc'), /\(its host is not written in its plain form\)$/);
    assert.match(reason('https://www.youtube.com:/watch?v=abc'), /\(its host is not written in its plain form\)$/);
    assert.match(reason('https://www.youtube.com./watch?v=abc'), /is not a supported host\)$/);
  });

  it('refuses URLs longer than 2048 characters before reading them', () => {
    const long = `https://www.youtube.com/watch?v=abc&pad=${'x'.repeat(2048)}`;
    assert.equal(reason(long), `${FORMS} (it is longer than 2048 characters)`);
    const justFits = `https://www.youtube.com/watch?v=abc&pad=`;
    assert.equal(parseVideoUrl(justFits + 'x'.repeat(2048 - justFits.length), rules).ok, true);
  });
});
