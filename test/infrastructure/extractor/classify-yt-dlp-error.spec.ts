import assert from 'node:assert/strict';
import type { DownloadErrorCode } from '../../../domain/download-error-code.js';
import { classifyYtDlpError } from '../../../infrastructure/extractor/classify-yt-dlp-error.js';

const COOKIES_HINT =
  'Use --cookies-from-browser or --cookies for the authentication. See  https://github.com/yt-dlp/yt-dlp/wiki/FAQ#how-do-i-pass-cookies-to-yt-dlp  for how to manually pass cookies. Also see  https://github.com/yt-dlp/yt-dlp/wiki/Extractors#exporting-youtube-cookies  for tips on effectively exporting YouTube cookies';
const REPORT_HINT =
  '; please report this issue on  https://github.com/yt-dlp/yt-dlp/issues?q= , filling out the appropriate issue template. Confirm you are on the latest version using  yt-dlp -U';

/**
 * stderr as yt-dlp writes it: the platform's reasons as YouTube sends them and
 * yt-dlp (2023 and current releases) forwards them, the generic extractor's
 * and the downloader's own failures, with the extractor names they come with.
 */
const CASES: ReadonlyArray<readonly [DownloadErrorCode | null, string]> = [
  [
    'PRIVATE_VIDEO',
    `ERROR: [youtube] dQw4w9WgXcQ: Private video. Sign in if you've been granted access to this video. ${COOKIES_HINT}`,
  ],
  ['PRIVATE_VIDEO', "ERROR: [youtube] dQw4w9WgXcQ: Private video. Sign in if you've been granted access to this video"],
  ['PRIVATE_VIDEO', 'ERROR: Private video'],
  ['PRIVATE_VIDEO', 'ERROR: [youtube+GetPOT] abcdefghijk: This video is private'],
  // The photo-sharing platform's post of an account followed by its followers only: a login would not be an age check.
  [
    'PRIVATE_VIDEO',
    `ERROR: [Instagram] Cx1AbCdEfGh: This content is only available for registered users who follow this account. ${COOKIES_HINT}`,
  ],
  [
    'PRIVATE_VIDEO',
    `ERROR: [TikTok] 7321234567890123456: You do not have permission to view this post. Log into an account that has access. ${COOKIES_HINT}`,
  ],
  ['PRIVATE_VIDEO', 'ERROR: [TikTok] 7321234567890123456: You do not have permission to view this post'],

  [
    'AGE_RESTRICTED',
    `ERROR: [youtube] abcdefghijk: Sign in to confirm your age. This video may be inappropriate for some users. ${COOKIES_HINT}`,
  ],
  [
    'AGE_RESTRICTED',
    'ERROR: [youtube] abcdefghijk: Sign in to confirm your age. This video may be inappropriate for some users.',
  ],
  ['AGE_RESTRICTED', 'ERROR: [youtube] abcdefghijk: This video is age-restricted and only available on YouTube'],
  ['AGE_RESTRICTED', 'ERROR: [youtube] abcdefghijk: This video is only available for registered users'],

  ['NETWORK_ERROR', `ERROR: [youtube] abcdefghijk: Sign in to confirm you\u2019re not a bot. ${COOKIES_HINT}`],
  [
    'NETWORK_ERROR',
    "ERROR: [youtube] abcdefghijk: Sign in to confirm you're not a bot. This helps protect our community. Learn more",
  ],
  [
    'NETWORK_ERROR',
    "ERROR: [youtube] abcdefghijk: Video unavailable. This content isn't available, try again later. The current session has been rate-limited by YouTube for up to an hour. It is recommended to use `-t sleep` to add a delay between video requests to avoid exceeding the rate limit. For more information, refer to  https://github.com/yt-dlp/yt-dlp/wiki/Extractors#this-content-isnt-available-try-again-later",
  ],
  [
    'NETWORK_ERROR',
    'ERROR: [youtube] abcdefghijk: Video unavailable. This content isn\u2019t available, try again later.',
  ],
  [
    'NETWORK_ERROR',
    'ERROR: [youtube] abcdefghijk: Unable to download API page: HTTP Error 429: Too Many Requests (caused by <HTTPError 429: Too Many Requests>)',
  ],
  [
    'NETWORK_ERROR',
    'ERROR: [youtube] abcdefghijk: Video unavailable. YouTube is requiring a captcha challenge before playback',
  ],

  [
    'MEMBERS_ONLY',
    'ERROR: [youtube] h7aSM88pUv8: Join this channel to get access to members-only content like this video, and other exclusive perks.',
  ],
  [
    'MEMBERS_ONLY',
    'ERROR: [youtube] epoGMzLgyFQ: Join this channel from your computer or Android app to get access to members-only content like this video.',
  ],
  [
    'MEMBERS_ONLY',
    "ERROR: [youtube] t0_4P09qL8k: This video is available to this channel's members on level: Tier 1 (or any higher level). Join this channel to get access to members-only content and other exclusive perks.",
  ],

  ['PAYMENT_REQUIRED', 'ERROR: [youtube] abcdefghijk: This video requires payment to watch.'],
  ['PAYMENT_REQUIRED', 'ERROR: [youtube] abcdefghijk: This video is only available to Music Premium members'],

  ['VIDEO_PREMIERE', 'ERROR: [youtube] abcdefghijk: Premieres in 6 hours'],
  ['VIDEO_PREMIERE', 'ERROR: [youtube] abcdefghijk: Premieres in 23 minutes'],
  ['VIDEO_PREMIERE', 'ERROR: [youtube] abcdefghijk: This live event will begin in a few moments.'],
  ['VIDEO_PREMIERE', 'ERROR: [youtube] abcdefghijk: This live event will begin in 3 hours.'],

  [
    'GEO_RESTRICTED',
    'ERROR: [youtube] abcdefghijk: The uploader has not made this video available in your country\nThis video is available in United States.\nYou might want to use a VPN or a proxy server (with --proxy) to workaround.',
  ],
  [
    'GEO_RESTRICTED',
    'ERROR: [generic] abcdefghijk: This video is not available from your location due to geo restriction',
  ],
  [
    'GEO_RESTRICTED',
    'ERROR: [youtube] abcdefghijk: Video unavailable. The uploader has not made this video available in your country.',
  ],

  ['DRM_PROTECTED', 'ERROR: [youtube] abcdefghijk: This video is DRM protected'],

  ['VIDEO_PROCESSING', 'ERROR: [youtube] abcdefghijk: This video is still being processed. Please try again later.'],
  ['VIDEO_PROCESSING', 'ERROR: [Reddit] 1wo4p3z: This video is processing'],

  [
    'COPYRIGHTED_MUSIC',
    'ERROR: [youtube] abcdefghijk: Video unavailable. This video contains content from SME, who has blocked it on copyright grounds.',
  ],
  [
    'COPYRIGHTED_MUSIC',
    'ERROR: [youtube] abcdefghijk: Video unavailable. This video contains content from WMG, who has blocked it in your country on copyright grounds.',
  ],
  [
    'COPYRIGHTED_MUSIC',
    'ERROR: [youtube] abcdefghijk: Video unavailable. This video is no longer available due to a copyright claim by Sony Music Entertainment.',
  ],

  ['VIDEO_NOT_FOUND', 'ERROR: [youtube] abcdefghijk: Video unavailable. This video has been removed by the uploader'],
  [
    'VIDEO_NOT_FOUND',
    'ERROR: [youtube] abcdefghijk: Video unavailable. This video is no longer available because the YouTube account associated with this video has been terminated.',
  ],
  [
    'VIDEO_NOT_FOUND',
    "ERROR: [youtube] abcdefghijk: Video unavailable. This video has been removed for violating YouTube's Terms of Service",
  ],
  ['VIDEO_NOT_FOUND', "ERROR: [youtube] abcdefghijk: This video isn't available anymore"],
  [
    'VIDEO_NOT_FOUND',
    'ERROR: [youtube:truncated_id] sv_2LzgoB0: Incomplete YouTube ID sv_2LzgoB0. URL https://www.youtube.com/watch?v=sv_2LzgoB0 looks truncated.',
  ],
  [
    'VIDEO_NOT_FOUND',
    `ERROR: [generic] None: Unable to download webpage: HTTP Error 404: Not Found (caused by <HTTPError 404: 'Not Found'>)${REPORT_HINT}`,
  ],
  ['VIDEO_NOT_FOUND', 'ERROR: Unsupported URL: https://www.youtube.com/feed/trending'],
  // On a host the service is configured for too: the page holds no video yt-dlp can find, and retrying finds none.
  ['VIDEO_NOT_FOUND', 'ERROR: Unsupported URL: https://www.instagram.com/p/Cx1AbCdEfGh/liked_by/'],
  [
    'VIDEO_NOT_FOUND',
    `WARNING: [generic] Falling back on generic information extractor\nERROR: Unsupported URL: http://127.0.0.1:8080/about`,
  ],
  // YT_DLP_EXTRACTORS leaves out every extractor that takes the URL: yt-dlp's words for the same thing.
  ['VIDEO_NOT_FOUND', 'ERROR: No suitable extractor found for URL https://www.youtube.com/watch?v=abcdefghijk'],

  ['VIDEO_UNAVAILABLE', 'ERROR: [youtube] abcdefghijk: Video unavailable'],
  ['VIDEO_UNAVAILABLE', 'ERROR: [youtube] abcdefghijk: Video unavailable. This content isn\u2019t available.'],
  ['VIDEO_UNAVAILABLE', 'ERROR: [youtube] abcdefghijk: Video unavailable. This video is unavailable'],
  ['VIDEO_UNAVAILABLE', 'ERROR: abcdefghijk: YouTube said: This video is not available.'],

  ['VIDEO_UNAVAILABLE', 'ERROR: unable to download video data: HTTP Error 403: Forbidden by the egress rule'],
  [
    'VIDEO_UNAVAILABLE',
    "ERROR: [generic] abc: Unable to download webpage: ('Unable to connect to proxy', OSError('Tunnel connection failed: 403 Forbidden by the egress rule'))",
  ],

  [
    'FORMAT_UNAVAILABLE',
    'ERROR: [generic] watch?v=abc: Requested format is not available. Use --list-formats for a list of available formats',
  ],
  [
    'FORMAT_UNAVAILABLE',
    'ERROR: [youtube] WrXQtE0wl8A: Requested format is not available. Use --list-formats for a list of available formats',
  ],
  ['FORMAT_UNAVAILABLE', `ERROR: [generic] example: No video formats found!${REPORT_HINT}`],

  [
    'LIVE_STREAM_IN_PROGRESS',
    'ERROR: [youtube] abcdefghijk: --live-from-start is passed, but there are no formats that can be downloaded from the start. If you want to download from the current time, use --no-live-from-start',
  ],

  ['NETWORK_ERROR', 'ERROR: [download] Got error: HTTP Error 500: Internal Server Error. Giving up after 1 retries'],
  ['NETWORK_ERROR', 'ERROR: unable to download video data: HTTP Error 404: Not Found'],
  // The media's 403 is an expired or throttled signed URL: a later attempt extracts fresh ones.
  ['NETWORK_ERROR', 'ERROR: unable to download video data: HTTP Error 403: Forbidden'],
  [
    'NETWORK_ERROR',
    "[download] Destination: media.f137.mp4\nERROR: unable to download video data: HTTP Error 403: Forbidden (caused by <HTTPError 403: 'Forbidden'>)",
  ],
  ['NETWORK_ERROR', 'ERROR: [download] Got error: [Errno 104] Connection reset by peer. Giving up after 3 retries'],
  ['NETWORK_ERROR', 'ERROR: fragment 1 not found, unable to continue'],
  [
    'NETWORK_ERROR',
    "ERROR: [youtube] abcdefghijk: Unable to download webpage: HTTP Error 503: Service Unavailable (caused by <HTTPError 503: 'Service Unavailable'>)",
  ],
  [
    'NETWORK_ERROR',
    "ERROR: [youtube] abcdefghijk: Unable to download webpage: HTTP Error 403: Forbidden (caused by <HTTPError 403: 'Forbidden'>)",
  ],
  [
    'NETWORK_ERROR',
    "ERROR: [youtube] abcdefghijk: Unable to download webpage: <urlopen error [Errno -3] Temporary failure in name resolution> (caused by URLError(gaierror(-3, 'Temporary failure in name resolution')))",
  ],
  [
    'NETWORK_ERROR',
    'ERROR: [youtube] abcdefghijk: Unable to download API page: <urlopen error [Errno 111] Connection refused>',
  ],
  [
    'NETWORK_ERROR',
    "ERROR: [youtube] abcdefghijk: Unable to download webpage: The read operation timed out (caused by TimeoutError('The read operation timed out'))",
  ],
  [
    'NETWORK_ERROR',
    'ERROR: [youtube] abcdefghijk: Unable to download webpage: Remote end closed connection without response',
  ],
  ['NETWORK_ERROR', 'ERROR: [download] Got error: 1024 bytes read, 2048 more expected. Giving up after 10 retries'],
  ['NETWORK_ERROR', 'ERROR: Did not get any data blocks'],
  [
    'NETWORK_ERROR',
    'ERROR: [youtube] abcdefghijk: Unable to download webpage: [SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: unable to get local issuer certificate',
  ],

  [null, 'ERROR: Postprocessing: audio conversion failed: Conversion failed!'],
  [null, "ERROR: unable to open for writing: [Errno 13] Permission denied: 'media.m4a.part'"],
  [null, 'ERROR: ffmpeg exited with code 1'],
  [null, `ERROR: [youtube] abcdefghijk: Unable to extract initial player response${REPORT_HINT}`],
  [
    null,
    'ERROR: You have requested merging of multiple formats but ffmpeg is not installed. Aborting due to --abort-on-error',
  ],
  [null, 'Usage: yt-dlp [OPTIONS] URL [URL...]\n\nyt-dlp: error: no such option: --foo'],
  [
    null,
    'Traceback (most recent call last):\n  File "yt_dlp/__main__.py", line 17, in <module>\nKeyError: \'formats\'',
  ],
];

describe('yt-dlp error classification', () => {
  for (const [code, stderr] of CASES) {
    it(`${code ?? 'unrecognised'}: ${stderr.split('\n')[0].slice(0, 110)}`, () => {
      const withNoise = `[youtube] Extracting URL: https://www.youtube.com/watch?v=abcdefghijk\nWARNING: [youtube] Sign in, private video, HTTP Error 404: warnings never decide\n${stderr}\n`;
      assert.equal(classifyYtDlpError(withNoise).code, code);
    });
  }

  it('ignores the extractor named in brackets', () => {
    for (const extractor of ['youtube', 'youtube+GetPOT', 'generic', 'fixtureplatform']) {
      assert.equal(classifyYtDlpError(`ERROR: [${extractor}] abc: Premieres in 2 hours`).code, 'VIDEO_PREMIERE');
    }
  });

  it('words each failure for what happened, never with the platform’s text or yt-dlp’s advice', () => {
    const worded: Array<[string, string]> = [
      ['ERROR: [youtube] dQw4w9WgXcQ: Private video', 'The video is private'],
      [
        'ERROR: [generic] watch?v=abc: Requested format is not available',
        'The requested format is not available for this video',
      ],
      [
        `ERROR: [youtube] dQw4w9WgXcQ: Private video. Sign in if you've been granted access to this video. ${COOKIES_HINT}`,
        'The video is private',
      ],
      [
        `ERROR: [generic] None: Unable to download webpage: HTTP Error 403: Go Away Robot (caused by <HTTPError 403: 'Go Away Robot'>)${REPORT_HINT}`,
        'The video platform refused the request (HTTP 403); retry after a short backoff',
      ],
      [
        'ERROR: [download] Got error: HTTP Error 503: Service Unavailable',
        'The video platform failed to answer (HTTP 503); retry after a short backoff',
      ],
      [
        `ERROR: [fixtureplatform] abc: Something nobody has seen before${REPORT_HINT}`,
        'The extractor failed for a reason the service does not recognise; retry after a short backoff',
      ],
      [
        'ERROR: [youtube] abc: Read timed out.',
        'The video platform did not answer in time; retry after a short backoff',
      ],
    ];
    for (const [stderr, message] of worded) assert.equal(classifyYtDlpError(stderr).message, message, stderr);
    for (const [, stderr] of CASES) {
      const { message } = classifyYtDlpError(`${stderr}${REPORT_HINT}`);
      assert.doesNotMatch(message, /yt-dlp|report this issue|github|cookies|caused by|HTTPError/i, stderr);
      // The platform's reason phrases, as it spells them.
      assert.doesNotMatch(message, /Not Found|Forbidden|Too Many Requests/, stderr);
    }
  });

  it('reports what the errors say when there are several, and still has a message without any', () => {
    const stderr =
      'ERROR: [download] Got error: HTTP Error 500: Internal Server Error\nERROR: fragment 1 not found, unable to continue\n';
    assert.deepEqual(classifyYtDlpError(stderr), {
      code: 'NETWORK_ERROR',
      message: 'The video platform failed to answer (HTTP 500); retry after a short backoff',
    });
    assert.deepEqual(classifyYtDlpError(''), {
      code: null,
      message: 'The extractor failed for a reason the service does not recognise; retry after a short backoff',
    });
  });
});
