import assert from 'node:assert/strict';
import { ROUTED_EVENT_TYPES, routeEventToWork } from '../../../application/processes/work-routing.js';
import { ACCOUNT_EVENT_TYPES } from '../../../domain/account/events.js';
import { CLIENT_DOWNLOAD_JOB_EVENT_TYPES } from '../../../domain/lookup-job/client-download-job.js';
import { DOWNLOAD_JOB_EVENT_TYPES } from '../../../domain/download-job/events.js';
import { INFO_JOB_EVENT_TYPES } from '../../../domain/lookup-job/info-job.js';

describe('work routing', () => {
  const event = (type: string) => ({
    id: 'e1',
    type,
    streamName: 'download-j1',
    revision: 0,
    position: '1',
    data: { jobId: 'j1', accountId: 'a1' },
    metadata: {},
    createdAt: new Date('2026-01-01T00:00:00Z'),
  });

  it('sets off work for exactly the routed event types, each carrying the job, the account, the event time and the event id', () => {
    for (const type of [
      ...ACCOUNT_EVENT_TYPES,
      ...DOWNLOAD_JOB_EVENT_TYPES,
      ...INFO_JOB_EVENT_TYPES,
      ...CLIENT_DOWNLOAD_JOB_EVENT_TYPES,
    ]) {
      const work = routeEventToWork(event(type));
      assert.equal(work.length > 0, (ROUTED_EVENT_TYPES as readonly string[]).includes(type), type);
      for (const message of work)
        assert.deepEqual(message.payload, {
          jobId: 'j1',
          accountId: 'a1',
          occurredAt: '2026-01-01T00:00:00.000Z',
          eventId: 'e1',
        });
    }
    assert.deepEqual(
      routeEventToWork(event('DownloadRequested')).map((m) => m.kind),
      ['download'],
    );
    assert.deepEqual(
      routeEventToWork(event('DownloadFailed')).map((m) => m.kind),
      ['billing', 'webhook'],
    );
    assert.deepEqual(
      routeEventToWork(event('DownloadCompleted')).map((m) => m.kind),
      ['billing', 'webhook'],
    );
    assert.deepEqual(
      routeEventToWork(event('DownloadReserved')).map((m) => m.kind),
      ['reservation'],
    );
    assert.deepEqual(
      routeEventToWork(event('InfoRequested')).map((m) => m.kind),
      ['info'],
    );
    assert.deepEqual(
      routeEventToWork(event('ClientDownloadRequested')).map((m) => m.kind),
      ['client-download'],
    );
  });

  it("names a lookup reservation's lookup as the job, so an orphaned one can be released", () => {
    const reserved = { ...event('LookupReserved'), data: { lookupId: 'l1', accountId: 'a1', feature: 'info' } };
    assert.deepEqual(routeEventToWork(reserved), [
      {
        kind: 'lookup-reservation',
        payload: { jobId: 'l1', accountId: 'a1', occurredAt: '2026-01-01T00:00:00.000Z', eventId: 'e1' },
      },
    ]);
  });
});
