import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { type Server, createServer } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { installedYtDlpPath } from '../../../infrastructure/config/config.js';
import { type EgressEvent, EgressProxy } from '../../../infrastructure/egress/egress-proxy.js';
import { hostResolver } from '../../../infrastructure/egress/resolve-host.js';
import { classifyYtDlpError } from '../../../infrastructure/extractor/classify-yt-dlp-error.js';
import { createLogger } from '../../../infrastructure/observability/create-logger.js';
import {
  FIXTURE_VIDEOS,
  type FixturePlatform,
  startFixturePlatform,
} from '../../fixtures/platform/fixture-platform.js';
import { type CanaryServer, startCanaryServer } from '../../support/canary-server.js';
import { startLoopbackDnsServer } from '../../support/loopback-dns-server.js';

const YT_DLP = process.env.YT_DLP_PATH ?? installedYtDlpPath();
const FFMPEG = process.env.FFMPEG_PATH ?? '/usr/bin/ffmpeg';

/** The fixture platform's extractor plugin, once it is written. */
let pluginPath = '';

function runYtDlp(args: string[], cwd: string): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      YT_DLP,
      [
        '--ignore-config',
        '--no-cache-dir',
        '--ffmpeg-location',
        FFMPEG,
        '--socket-timeout',
        '10',
        '--retries',
        '0',
        '--fragment-retries',
        '0',
        ...args,
      ],
      { cwd, env: { ...process.env, PYTHONPATH: pluginPath } },
      (error, _stdout, stderr) =>
        resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stderr }),
    );
  });
}

/** A media playlist on an allowed host whose one segment lives on `segmentHost`. */
async function startPlaylistServer(segmentHost: () => string): Promise<{ host: string; server: Server }> {
  const server = createServer((request, response) => {
    if (request.url === '/elsewhere.m3u8') {
      response.writeHead(200, { 'Content-Type': 'application/vnd.apple.mpegurl' });
      response.end(
        `#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:0\n#EXTINF:2.0,\nhttp://${segmentHost()}/segment-0.ts\n#EXT-X-ENDLIST\n`,
      );
      return;
    }
    response.writeHead(302, { Location: `http://${segmentHost()}/media/redirected.mp4` }).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { host: `127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('egress proxy', function () {
  this.timeout(120_000);
  let platform: FixturePlatform;
  let canary: CanaryServer;
  let playlists: { host: string; server: Server };
  let proxy: EgressProxy;
  let workDir: string;
  const allowed: EgressEvent[] = [];
  const refused: EgressEvent[] = [];

  before(async () => {
    platform = await startFixturePlatform();
    pluginPath = platform.pluginPath;
    canary = await startCanaryServer();
    playlists = await startPlaylistServer(() => canary.host);
    workDir = await mkdtemp(path.join(tmpdir(), 'egress-proxy-'));
    proxy = new EgressProxy({
      allow: [platform.host, playlists.host],
      logger: createLogger('silent'),
      resolve: async (hostname) => {
        // A name that resolves to loopback, as a hostile DNS answer would.
        if (hostname === 'rebound.example.com') return ['127.0.0.1'];
        // A public address, only ever handed to a stand-in upstream proxy that never dials it.
        if (hostname === 'cdn.example.com') return ['93.184.216.34'];
        // The resolver's failures, as c-ares reports them.
        throw Object.assign(new Error(`query failed for ${hostname}`), {
          code: hostname.startsWith('slow.') ? 'ETIMEOUT' : 'ENOTFOUND',
        });
      },
    });
    proxy.on('allowed', (event: EgressEvent) => allowed.push(event));
    proxy.on('refused', (event: EgressEvent) => refused.push(event));
    await proxy.start();
  });
  after(async () => {
    await proxy?.close();
    await platform?.stop();
    await canary?.close();
    await new Promise((resolve) => playlists?.server.close(resolve));
    if (workDir !== undefined) await rm(workDir, { recursive: true, force: true });
  });
  beforeEach(() => {
    allowed.length = 0;
    refused.length = 0;
  });

  it('refuses loopback, private and link-local targets that are not allowed, by address or by what a name resolves to, with 403 and a reason', async () => {
    for (const target of [
      canary.host,
      '10.0.0.1:80',
      '169.254.169.254:80',
      '[::1]:80',
      '0.0.0.0:80',
      'rebound.example.com:80',
    ]) {
      const response = await fetchThrough(proxy.proxyUrlNow(), `http://${target}/`);
      assert.equal(response.status, 403, target);
      assert.match(response.body, /^Egress refused: .* is not on EGRESS_ALLOW|did not resolve/, target);
    }
    // HTTPS goes as CONNECT, judged the same way.
    assert.equal(await connectThrough(proxy.proxyUrlNow(), canary.host), 403);
    assert.equal(await connectThrough(proxy.proxyUrlNow(), 'rebound.example.com:443'), 403);
    assert.equal(await connectThrough(proxy.proxyUrlNow(), platform.host), 200);
    assert.deepEqual(canary.hits, []);
    assert.ok(
      refused.some(
        (event) =>
          event.target === 'rebound.example.com:80' && /127\.0\.0\.1, a loopback address/.test(event.reason ?? ''),
      ),
      JSON.stringify(refused),
    );
  });

  it('asks for its own credentials, so no other local program can relay through it', async () => {
    const wrong = new URL(proxy.proxyUrlNow());
    wrong.password = 'guess';
    assert.equal((await fetchThrough(wrong.toString(), `http://${platform.host}/`)).status, 407);
  });

  it("chains to the operator's upstream proxy after judging the target, and never hands it a refused one", async () => {
    const { Server } = await import('proxy-chain');
    const upstreamSaw: string[] = [];
    const upstream = new Server({
      port: 0,
      host: '127.0.0.1',
      prepareRequestFunction: ({ hostname, port }) => void upstreamSaw.push(`${hostname}:${port}`),
    });
    await upstream.listen();
    try {
      const through = proxy.proxyUrlNow(`http://127.0.0.1:${upstream.port}`);
      const page = await fetchThrough(through, platform.watchUrl(FIXTURE_VIDEOS.clip.id));
      assert.equal(page.status, 200);
      assert.deepEqual(upstreamSaw, [platform.host]);
      assert.ok(
        allowed.some((event) => event.target === platform.host && event.viaUpstream),
        JSON.stringify(allowed),
      );
      assert.equal((await fetchThrough(through, `http://${canary.host}/`)).status, 403);
      assert.deepEqual(upstreamSaw, [platform.host]);
      assert.deepEqual(canary.hits, []);
    } finally {
      await upstream.close(true);
    }
  });

  it('answers a name that does not resolve with 502, and a resolver timeout with 504: a failed lookup, never a refusal', async () => {
    for (const [target, status, phrase] of [
      ['gone.invalid', 502, /^Egress lookup failed: gone\.invalid could not be resolved \(ENOTFOUND\)$/],
      ['slow.invalid', 504, /^Egress lookup failed: slow\.invalid could not be resolved \(ETIMEOUT\)$/],
    ] as const) {
      const response = await fetchThrough(proxy.proxyUrlNow(), `http://${target}/`);
      assert.deepEqual(
        [response.status, response.statusMessage],
        [status, status === 502 ? 'Name resolution failed' : 'Name resolution timed out'],
      );
      assert.match(response.body, phrase);
      assert.equal(await connectThrough(proxy.proxyUrlNow(), `${target}:443`), status);
    }
    // Not the rule's verdict: nothing is counted or reported as refused.
    assert.deepEqual(refused, []);
    // A policy refusal still answers 403.
    assert.equal((await fetchThrough(proxy.proxyUrlNow(), 'http://rebound.example.com/')).status, 403);
  });

  it('gets the same answers from DNS itself, asked with a timeout: NXDOMAIN is 502, a silent server 504', async () => {
    const dns = await startLoopbackDnsServer({ 'rebound.invalid': ['127.0.0.1'], 'slow.invalid': 'silent' });
    const viaDns = new EgressProxy({
      allow: [],
      logger: createLogger('silent'),
      resolve: hostResolver({ servers: [dns.address], timeoutMs: 200, tries: 1 }),
    });
    try {
      await viaDns.start();
      assert.equal((await fetchThrough(viaDns.proxyUrlNow(), 'http://gone.invalid/')).status, 502);
      assert.equal(await connectThrough(viaDns.proxyUrlNow(), 'slow.invalid:443'), 504);
      const refusal = await fetchThrough(
        viaDns.proxyUrlNow(),
        `http://rebound.invalid:${new URL(`http://${canary.host}`).port}/`,
      );
      assert.equal(refusal.status, 403);
      assert.match(refusal.body, /rebound\.invalid:\d+ resolves to 127\.0\.0\.1, a loopback address/);
      assert.ok(dns.asked.includes('gone.invalid') && dns.asked.includes('slow.invalid'), dns.asked.join());
      assert.deepEqual(canary.hits, []);
    } finally {
      await viaDns.close();
      await dns.close();
    }
  });

  it("leaves a failed lookup to yt-dlp's retries: the run's error says the name did not resolve, and classifies as a network error", async () => {
    for (const [url, quoted] of [
      ['http://gone.invalid/watch', /HTTP Error 502: Name resolution failed/],
      ['https://gone.invalid/watch', /502 Name resolution failed/],
      ['http://slow.invalid/watch', /HTTP Error 504: Name resolution timed out/],
    ] as const) {
      const run = await runYtDlp(['--proxy', proxy.proxyUrlNow(), '-o', 'never.%(ext)s', url], workDir);
      assert.notEqual(run.code, 0);
      assert.match(run.stderr, quoted, run.stderr);
      assert.doesNotMatch(run.stderr, /egress rule/i);
      const classified = classifyYtDlpError(run.stderr);
      assert.equal(classified.code, 'NETWORK_ERROR', run.stderr);
      assert.match(classified.message, /address could not be resolved/);
    }
  });

  it("hands the operator's upstream proxy the address it judged, never the name, which the upstream would resolve again", async () => {
    const upstream = await startRecordingUpstream();
    try {
      const through = proxy.proxyUrlNow(upstream.url);
      assert.equal(await connectThrough(through, 'cdn.example.com:443'), 200);
      const page = await fetchThrough(through, 'http://cdn.example.com:8080/media/clip.mp4?part=1');
      assert.equal(page.status, 200);
      assert.deepEqual(upstream.saw, [
        { method: 'CONNECT', target: '93.184.216.34:443', host: '93.184.216.34:443' },
        { method: 'GET', target: 'http://93.184.216.34:8080/media/clip.mp4?part=1', host: 'cdn.example.com:8080' },
      ]);
      assert.ok(
        allowed.some((event) => event.target === 'cdn.example.com:443' && event.viaUpstream),
        JSON.stringify(allowed),
      );
    } finally {
      await upstream.close();
    }
  });

  it('lets yt-dlp download from an allowed host, and refuses where a redirect leads outside the rule', async () => {
    const good = await runYtDlp(
      [
        '--proxy',
        proxy.proxyUrlNow(),
        '-f',
        'hd',
        '-o',
        'clip.%(ext)s',
        platform.pageUrl(`/p/${FIXTURE_VIDEOS.clip.id}`),
      ],
      workDir,
    );
    assert.equal(good.code, 0, good.stderr);
    assert.ok(
      allowed.some((event) => event.url === `http://${platform.host}/media/${FIXTURE_VIDEOS.clip.id}/video.mp4`),
      JSON.stringify(allowed),
    );

    const redirected = await runYtDlp(
      ['--proxy', proxy.proxyUrlNow(), '-o', 'redirected.%(ext)s', `http://${playlists.host}/go/anything`],
      workDir,
    );
    assert.notEqual(redirected.code, 0);
    assert.match(redirected.stderr, /HTTP Error 403: Forbidden by the egress rule/);
    assert.ok(
      refused.some((event) => event.target === canary.host),
      JSON.stringify(refused),
    );
    assert.deepEqual(canary.hits, []);
  });

  it("carries ffmpeg's HLS requests too: the fixture's segments go through it, and a segment outside the rule is refused", async () => {
    const hls = await runYtDlp(
      [
        '--proxy',
        proxy.proxyUrlNow(),
        '--downloader',
        'ffmpeg',
        '-o',
        'hls.%(ext)s',
        `http://${platform.host}/media/${FIXTURE_VIDEOS.multi.id}/video-360/index.m3u8`,
      ],
      workDir,
    );
    assert.equal(hls.code, 0, hls.stderr);
    assert.match(hls.stderr + (await listing(workDir)), /hls\.mp4/);
    assert.ok(
      allowed.some(
        (event) =>
          event.url?.startsWith(`http://${platform.host}/media/${FIXTURE_VIDEOS.multi.id}/video-360/`) &&
          !event.url.endsWith('.m3u8'),
      ),
      JSON.stringify(allowed),
    );

    const elsewhere = await runYtDlp(
      [
        '--proxy',
        proxy.proxyUrlNow(),
        '--downloader',
        'ffmpeg',
        '-o',
        'elsewhere.%(ext)s',
        `http://${playlists.host}/elsewhere.m3u8`,
      ],
      workDir,
    );
    assert.notEqual(elsewhere.code, 0);
    assert.ok(
      refused.some((event) => event.url === `http://${canary.host}/segment-0.ts`),
      JSON.stringify(refused),
    );
    assert.deepEqual(canary.hits, []);
  });
});

async function listing(dir: string): Promise<string> {
  const { readdir } = await import('node:fs/promises');
  return (await readdir(dir)).join(' ');
}

/** A plain HTTP request through the proxy, the way yt-dlp sends one. */
async function fetchThrough(
  proxyUrl: string,
  target: string,
): Promise<{ status: number; statusMessage: string; body: string }> {
  const { request } = await import('node:http');
  const proxyAddress = new URL(proxyUrl);
  const credentials = Buffer.from(
    `${decodeURIComponent(proxyAddress.username)}:${decodeURIComponent(proxyAddress.password)}`,
  ).toString('base64');
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: proxyAddress.hostname,
        port: proxyAddress.port,
        path: target,
        headers: { 'Proxy-Authorization': `Basic ${credentials}`, Host: new URL(target).host },
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, statusMessage: response.statusMessage ?? '', body }),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** A CONNECT through the proxy, as yt-dlp opens an HTTPS tunnel; the proxy's answer. */
async function connectThrough(proxyUrl: string, target: string): Promise<number> {
  const { request } = await import('node:http');
  const proxyAddress = new URL(proxyUrl);
  const credentials = Buffer.from(
    `${decodeURIComponent(proxyAddress.username)}:${decodeURIComponent(proxyAddress.password)}`,
  ).toString('base64');
  return new Promise((resolve, reject) => {
    const outgoing = request({
      host: proxyAddress.hostname,
      port: proxyAddress.port,
      method: 'CONNECT',
      path: target,
      headers: { 'Proxy-Authorization': `Basic ${credentials}` },
    });
    outgoing.on('connect', (response, socket) => {
      socket.destroy();
      resolve(response.statusCode ?? 0);
    });
    outgoing.on('response', (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

interface RecordingUpstream {
  url: string;
  saw: Array<{ method: string; target: string; host: string | undefined }>;
  close(): Promise<void>;
}

/**
 * An operator's proxy stand-in that records what it is asked for and answers itself, dialling nothing: a tunnel is
 * accepted and closed, a plain request answered 200.
 */
async function startRecordingUpstream(): Promise<RecordingUpstream> {
  const saw: RecordingUpstream['saw'] = [];
  const server = createServer((request, response) => {
    saw.push({ method: request.method ?? '', target: request.url ?? '', host: request.headers.host });
    response.end('from the upstream');
  });
  server.on('connect', (request, socket) => {
    saw.push({ method: 'CONNECT', target: request.url ?? '', host: request.headers.host });
    socket.end('HTTP/1.1 200 Connection Established\r\n\r\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    saw,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
