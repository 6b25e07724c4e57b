import assert from 'node:assert/strict';
import {
  PERSONAL_FIELDS,
  holdsPersonalData,
  mapPersonalFields,
} from '../../../domain/personal-data/personal-fields.js';

const mark = (value: unknown) => `<${JSON.stringify(value)}>`;

describe('domain: which event fields are personal, and changing only those', () => {
  it('changes top-level, nested, per-element and whole-value fields, leaving the rest and the input as they were', () => {
    const batch = {
      batchId: 'b1',
      accountId: 'a1',
      source: { kind: 'urls', urls: ['https://v/1', 'https://v/2'] },
      webhookUrl: null,
      batchWebhookUrl: 'https://hook',
      maxVideos: 2,
    };
    const frozen = structuredClone(batch);
    assert.deepEqual(mapPersonalFields('BatchRequested', batch, mark), {
      ...batch,
      source: { kind: 'urls', urls: ['<"https://v/1">', '<"https://v/2">'] },
      batchWebhookUrl: '<"https://hook">',
    });
    assert.deepEqual(batch, frozen);
    const listed = { accountId: 'a1', videos: [{ videoUrl: 'u', title: null }], listingUnits: 1 };
    assert.deepEqual(mapPersonalFields('BatchListed', listed, mark), {
      ...listed,
      videos: [{ videoUrl: '<"u">', title: null }],
    });
    const succeeded = { accountId: 'a1', jobId: 'j', result: { title: 'T', duration: 3 } };
    assert.deepEqual(mapPersonalFields('InfoSucceeded', succeeded, mark), {
      ...succeeded,
      result: '<{"title":"T","duration":3}>',
    });
  });

  it('leaves events without personal data, and fields of another shape, untouched', () => {
    const charged = { accountId: 'a1', jobId: 'j', bandwidthMb: 20 };
    assert.equal(mapPersonalFields('BandwidthCharged', charged, mark), charged);
    assert.equal(holdsPersonalData('BandwidthCharged'), false);
    const playlist = { accountId: 'a1', source: { kind: 'playlist', url: 'p' } };
    assert.deepEqual(mapPersonalFields('BatchRequested', playlist, mark), {
      ...playlist,
      source: { kind: 'playlist', url: '<"p">' },
    });
  });

  it('names the account’s identity, every URL it submits and the webhook secret, never an amount or an id', () => {
    assert.deepEqual(PERSONAL_FIELDS.AccountOpened, ['name', 'email']);
    assert.ok(PERSONAL_FIELDS.ApiKeyIssued?.includes('encryptedKey'));
    for (const type of ['DownloadRequested', 'InfoRequested', 'ClientDownloadRequested', 'WebhookAttemptStarted'])
      assert.ok(PERSONAL_FIELDS[type]?.includes('url'), type);
    const all = Object.values(PERSONAL_FIELDS).flat();
    for (const kept of ['accountId', 'jobId', 'bandwidthMb', 'units', 'fileSizeBytes', 'duration'])
      assert.ok(!all.some((path) => path.split(/[.[\]]/).includes(kept)), kept);
  });
});
