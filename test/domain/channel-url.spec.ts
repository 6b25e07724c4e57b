import assert from 'node:assert/strict';
import { parseChannelUrl } from '../../domain/channel-url.js';

const rules = { videoHosts: ['www.youtube.com', 'youtube.com'] };

describe('channel URLs', () => {
  it('accepts the forms users paste, with or without /videos', () => {
    for (const url of [
      'https://www.youtube.com/@someone',
      'https://www.youtube.com/@someone/videos',
      'https://youtube.com/channel/UC1234567890abcdefghijkl',
      'https://www.youtube.com/channel/UC1234567890abcdefghijkl/videos/',
      'https://www.youtube.com/c/SomeName',
      'https://www.youtube.com/user/someuser/videos',
      'https://www.youtube.com/@%C3%BCber',
    ]) {
      assert.deepEqual(parseChannelUrl(url, rules), { ok: true, url }, url);
    }
  });

  it('given a channel URL with a query or a smuggled fragment, when it is accepted, then the extractor gets scheme, host and path only', () => {
    const smuggled = '#__youtubedl_smuggle=%7B%22http_headers%22%3A+%7B%22Host%22%3A+%22canary.invalid%22%7D%7D';
    assert.deepEqual(parseChannelUrl(`https://www.youtube.com/@someone${smuggled}`, rules), {
      ok: true,
      url: 'https://www.youtube.com/@someone',
    });
    assert.deepEqual(
      parseChannelUrl(`https://youtube.com/c/SomeName/videos?view=0&__youtubedl_smuggle=x${smuggled}`, rules),
      { ok: true, url: 'https://youtube.com/c/SomeName/videos' },
    );
    assert.deepEqual(parseChannelUrl('https://www.youtube.com/@%C3%BCber#x', rules), {
      ok: true,
      url: 'https://www.youtube.com/@%C3%BCber',
    });
  });

  it('refuses other paths, hosts and schemes, naming the field and the problem', () => {
    const reason = (url: string) => {
      const result = parseChannelUrl(url, rules);
      assert.equal(result.ok, false, url);
      return result.ok ? '' : result.reason;
    };
    assert.match(
      reason('https://www.youtube.com/watch?v=abc'),
      /^channelUrl must be a channel URL of the form https:\/\/www\.youtube\.com\/@<handle>.*\(\/watch is not a channel path\)$/,
    );
    assert.match(reason('https://www.youtube.com/@someone/shorts'), /not a channel path/);
    assert.match(reason('https://www.youtube.com/channel/'), /not a channel path/);
    assert.match(reason('https://www.youtube.com/c/a/b'), /not a channel path/);
    assert.match(reason('https://evil.example/@someone'), /evil\.example is not a supported host/);
    assert.match(reason('http://www.youtube.com/@someone'), /the scheme must be https/);
    assert.match(reason('@someone'), /not an absolute URL/);
  });
});
