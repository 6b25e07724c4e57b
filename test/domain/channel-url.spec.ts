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

  it('refuses other paths, hosts and schemes, naming the field and the problem', () => {
    const reason = (url: string) => {
      const result = parseChannelUrl(url, rules);
      assert.equal(result.ok, false, url);
      return result.ok ? '' : result.reason;
    };
    assert.match(reason('https://www.youtube.com/watch?v=abc'), /^channelUrl must be a channel URL of the form https:\/\/www\.youtube\.com\/@<handle>.*\(\/watch is not a channel path\)$/);
    assert.match(reason('https://www.youtube.com/@someone/shorts'), /not a channel path/);
    assert.match(reason('https://www.youtube.com/channel/'), /not a channel path/);
    assert.match(reason('https://www.youtube.com/c/a/b'), /not a channel path/);
    assert.match(reason('https://evil.example/@someone'), /evil\.example is not a supported host/);
    assert.match(reason('http://www.youtube.com/@someone'), /the scheme must be https/);
    assert.match(reason('@someone'), /not an absolute URL/);
  });
});
