import { accountDecider } from '../../../domain/account/decider.js';
import { clientDownloadJobDecider } from '../../../domain/lookup-job/client-download-job.js';
import type { Decider, DomainEvent } from '../../../domain/decider.js';
import { foldEvents } from '../fold-events.js';
import { downloadJobDecider } from '../../../domain/download-job/decider.js';
import { fileRetentionDecider } from '../../../domain/file-retention/decider.js';
import { infoJobDecider } from '../../../domain/lookup-job/info-job.js';
import { webhookDeliveryDecider } from '../../../domain/webhook-delivery/decider.js';
import { rowsByStream, type StoredEventRow } from './stored-event-row.js';

type AnyDecider = Pick<Decider<unknown, DomainEvent, unknown>, 'evolve' | 'initialState'>;

/** Every decider that folds a stream of the category, by name. */
const DECIDERS_BY_CATEGORY: Record<string, Record<string, AnyDecider>> = {
  account: { account: accountDecider as unknown as AnyDecider },
  download: {
    downloadJob: downloadJobDecider as unknown as AnyDecider,
    fileRetention: fileRetentionDecider as unknown as AnyDecider,
    webhookDelivery: webhookDeliveryDecider as unknown as AnyDecider,
  },
  info: { infoJob: infoJobDecider as unknown as AnyDecider },
  clientdownload: { clientDownloadJob: clientDownloadJobDecider as unknown as AnyDecider },
};

/** The states the deciders fold each stream into, as JSON would keep them; streams no decider folds are left out. */
export function foldStoredStreams(rows: readonly StoredEventRow[]): Record<string, Record<string, unknown>> {
  const states: Record<string, Record<string, unknown>> = {};
  for (const [stream, events] of rowsByStream(rows)) {
    const deciders = DECIDERS_BY_CATEGORY[stream.split('-')[0]];
    if (deciders === undefined) continue;
    const domainEvents = events.map(({ type, data }) => ({ type, data }));
    states[stream] = Object.fromEntries(
      Object.entries(deciders).map(([name, decider]) => [
        name,
        JSON.parse(JSON.stringify(foldEvents(decider, domainEvents))),
      ]),
    );
  }
  return states;
}
