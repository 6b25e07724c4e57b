import assert from 'node:assert/strict';
import { classifyYtDlpError } from '../../../infrastructure/extractor/classify-yt-dlp-error.js';

describe('yt-dlp error classification', () => {
  const cases: Array<[string, string | null]> = [
    ["ERROR: [youtube] abc: Private video. Sign in if you've been granted access to this video", 'PRIVATE_VIDEO'],
    ['ERROR: Private video', 'PRIVATE_VIDEO'],
    ['ERROR: [youtube] abc: Sign in to confirm your age. This video may be inappropriate for some users.', 'AGE_RESTRICTED'],
    ["ERROR: [youtube] abc: Sign in to confirm you’re not a bot. Use --cookies-from-browser", 'NETWORK_ERROR'],
    ["ERROR: [youtube] abc: Sign in to confirm you're not a bot.", 'NETWORK_ERROR'],
    ["ERROR: [youtube] abc: Video unavailable. This content isn't available, try again later. The current session has been rate-limited by YouTube", 'NETWORK_ERROR'],
    ['ERROR: [youtube] abc: Join this channel to get access to members-only content like this video, and other exclusive perks.', 'MEMBERS_ONLY'],
    ['ERROR: [youtube] abc: This video requires payment to watch.', 'PAYMENT_REQUIRED'],
    ['ERROR: [youtube] abc: Premieres in 6 hours', 'VIDEO_PREMIERE'],
    ['ERROR: [youtube] abc: This live event will begin in a few moments.', 'VIDEO_PREMIERE'],
    ['ERROR: [youtube] abc: Video unavailable. The uploader has not made this video available in your country', 'GEO_RESTRICTED'],
    ['ERROR: [generic] abc: This video is not available from your location due to geo restriction', 'GEO_RESTRICTED'],
    ['ERROR: [youtube] abc: This video is DRM protected', 'DRM_PROTECTED'],
    ['ERROR: [youtube] abc: This video is still being processed. Please try again later.', 'VIDEO_PROCESSING'],
    ['ERROR: [youtube] abc: Video unavailable. This video contains content from SME, who has blocked it on copyright grounds.', 'COPYRIGHTED_MUSIC'],
    ['ERROR: [youtube] abc: Video unavailable. This video has been removed by the uploader', 'VIDEO_NOT_FOUND'],
    ['ERROR: [youtube] abc: Video unavailable. This video is no longer available because the YouTube account associated with this video has been terminated.', 'VIDEO_NOT_FOUND'],
    ['ERROR: [generic] watch?v=x: Unable to download webpage: HTTP Error 404: Not Found (caused by <HTTPError 404>)', 'VIDEO_NOT_FOUND'],
    ['ERROR: [youtube] abc: Video unavailable', 'VIDEO_UNAVAILABLE'],
    ['ERROR: [generic] watch?v=abc: Requested format is not available. Use --list-formats for a list of available formats', 'FORMAT_UNAVAILABLE'],
    ['ERROR: Unable to download webpage: HTTP Error 503: Service Unavailable', 'NETWORK_ERROR'],
    ['ERROR: unable to download video data: HTTP Error 403: Forbidden', 'NETWORK_ERROR'],
    ['ERROR: [Errno 104] Connection reset by peer', 'NETWORK_ERROR'],
    ['ERROR: Unable to download webpage: <urlopen error [Errno -3] Temporary failure in name resolution>', 'NETWORK_ERROR'],
    ['ERROR: Postprocessing: audio conversion failed: Conversion failed!', null],
    ["ERROR: unable to open for writing: [Errno 13] Permission denied: 'x.part'", null],
  ];
  for (const [stderr, code] of cases) {
    it(`${code ?? 'unrecognised'}: ${stderr.slice(0, 90)}`, () => assert.equal(classifyYtDlpError(`WARNING: something first\n${stderr}\n`).code, code));
  }

  it('strips the ERROR and extractor prefixes from the message', () => {
    assert.equal(classifyYtDlpError('ERROR: [youtube] dQw4w9WgXcQ: Private video').message, 'Private video');
  });
});
