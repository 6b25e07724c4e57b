import assert from 'node:assert/strict';
import type { ClientDownloadJobCommandHandler } from '../../../application/lookups/lookup-job-commands.js';
import { lookUpClientDownloadLinks } from '../../../application/lookups/look-up-client-download-links.js';
import { lookupJobSteps } from '../../../application/lookups/lookup-job-steps.js';
import { CLIENT_DOWNLOAD_JOB, type ClientDownloadRequested } from '../../../domain/lookup-job/client-download-job.js';
import { ScriptedExtractor } from '../../support/scripted-extractor.js';

const SUBMITTED = 'https://www.instagram.com/p/C0abcDEfg/#__youtubedl_smuggle=%7B%22http_headers%22%3A%7B%7D%7D';

/** The URL each lookup handed the extractor, for a job recorded with `request`. */
async function extractorUrlFor(request: ClientDownloadRequested['data']): Promise<string> {
  const asked: string[] = [];
  const extractor = new ScriptedExtractor({
    resolveMediaLinks: async (url) => {
      asked.push(url);
      return { title: 't', duration: 1, links: [] };
    },
  });
  const jobs = {
    load: async () => ({
      state: { status: 'pending', request, result: null, error: null, errorCode: null, failedAttempts: 0 },
    }),
  } as unknown as ClientDownloadJobCommandHandler;
  const result = await (
    await lookupJobSteps(CLIENT_DOWNLOAD_JOB, jobs, lookUpClientDownloadLinks(extractor)).load(request.jobId)
  ).lookUp();
  assert.equal(result.url, SUBMITTED, 'the result reports the URL as submitted');
  return asked[0];
}

describe('client-download job steps', () => {
  const request = {
    jobId: 'j1',
    accountId: 'a1',
    url: SUBMITTED,
    platform: 'photo-sharing' as const,
    requestedAt: '2026-01-01T00:00:00.000Z',
    expiresAt: '2026-01-01T01:00:00.000Z',
  };

  it('given a job recorded with its rebuilt link, when it is looked up, then the extractor gets that link', async () => {
    assert.equal(
      await extractorUrlFor({ ...request, canonicalUrl: 'https://www.instagram.com/p/C0abcDEfg/' }),
      'https://www.instagram.com/p/C0abcDEfg/',
    );
  });

  it('given a job recorded before links were rebuilt, when it is looked up, then the extractor gets the URL without its fragment', async () => {
    assert.equal(await extractorUrlFor(request), 'https://www.instagram.com/p/C0abcDEfg/');
  });
});
