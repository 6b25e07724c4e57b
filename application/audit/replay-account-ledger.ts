import {
  accountBalances,
  type FeatureBalance,
  featureBalance,
  visibleFeatures,
} from '../../domain/account/balances.js';
import { accountDecider } from '../../domain/account/decider.js';
import type { AccountEvent } from '../../domain/account/events.js';
import type { LookupFeature } from '../../domain/account/lookups.js';
import type { FeatureId } from '../../domain/account/plan.js';
import type { AccountState } from '../../domain/account/state.js';
import { streamName } from '../../domain/stream-name.js';
import type { Clock } from '../ports/clock.js';
import type { EventStore } from '../ports/event-store.js';
import type { AccountReadModel } from '../ports/read-models.js';

export type LedgerEntry =
  | {
      kind: 'charge';
      at: string;
      revision: number;
      jobId: string;
      fileSizeBytes: number;
      bandwidthMb: number;
      downloads: number;
      balances: RunningBalances;
    }
  | {
      kind: 'period';
      at: string;
      revision: number;
      planId: string;
      periodStart: string;
      periodEnd: string | null;
      balances: RunningBalances;
    }
  | { kind: 'grant'; at: string; revision: number; feature: FeatureId; units: number; balances: RunningBalances }
  | {
      kind: 'lookup-charge';
      at: string;
      revision: number;
      feature: LookupFeature;
      /** The info or client-download job, or the channel listing, that was charged. */
      lookupId: string;
      /** What it looked up: the video, post or channel URL. */
      subject: string;
      units: number;
      balances: RunningBalances;
    }
  | {
      /** A reservation freed uncharged: a download or lookup that failed, was cancelled or abandoned. */
      kind: 'release';
      at: string;
      revision: number;
      feature: 'download' | LookupFeature;
      /** The download job, or the lookup, whose reservation was freed. */
      reference: string;
      balances: RunningBalances;
    };

/** Per visible feature: used and remaining after the entry. */
export type RunningBalances = Partial<Record<FeatureId, { used: number; remaining: number | 'unlimited' }>>;

export interface AuditReport {
  accountId: string;
  events: number;
  entries: LedgerEntry[];
  replayed: Partial<Record<FeatureId, FeatureBalance>>;
  readModel: Partial<Record<FeatureId, FeatureBalance>> | null;
  /** Empty when the replay agrees with the read model. */
  differences: string[];
}

/**
 * The auditors' replay: folds an account's stream from the event store alone,
 * lists every billing-relevant event with the running balances after it, and
 * compares the balances it arrives at with what the read model serves.
 */
export class ReplayAccountLedger {
  constructor(
    private readonly store: EventStore,
    private readonly readModel: AccountReadModel,
    private readonly clock: Clock,
  ) {}

  async execute(accountId: string): Promise<AuditReport | null> {
    const recorded = await this.store.readStream(streamName('account', accountId));
    if (recorded.length === 0) return null;
    let state = accountDecider.initialState();
    const entries: LedgerEntry[] = [];
    for (const event of recorded) {
      const domainEvent = { type: event.type, data: event.data } as unknown as AccountEvent;
      state = accountDecider.evolve(state, domainEvent);
      const entry = ledgerEntry(domainEvent, event.revision, state);
      if (entry !== null) entries.push(entry);
    }
    const now = this.clock.now().getTime();
    const replayed = accountBalances(state, now);
    const view = await this.readModel.get(accountId);
    const readModel = view === null ? null : accountBalances(view.state, now);
    return {
      accountId,
      events: recorded.length,
      entries,
      replayed,
      readModel,
      differences: compare(replayed, readModel),
    };
  }
}

function ledgerEntry(event: AccountEvent, revision: number, state: AccountState): LedgerEntry | null {
  const balances = runningBalances(state);
  switch (event.type) {
    case 'BandwidthCharged': {
      const { jobId, fileSizeBytes, bandwidthMb, downloads, chargedAt } = event.data;
      return { kind: 'charge', at: chargedAt, revision, jobId, fileSizeBytes, bandwidthMb, downloads, balances };
    }
    case 'PlanChanged':
      return {
        kind: 'period',
        at: event.data.changedAt,
        revision,
        planId: event.data.plan.id,
        periodStart: event.data.periodStart,
        periodEnd: event.data.periodEnd,
        balances,
      };
    case 'BillingPeriodRenewed':
      return {
        kind: 'period',
        at: event.data.periodStart,
        revision,
        planId: state.plan?.id ?? 'unknown',
        periodStart: event.data.periodStart,
        periodEnd: event.data.periodEnd,
        balances,
      };
    case 'LookupCharged': {
      const { feature, lookupId, subject, units, chargedAt } = event.data;
      return { kind: 'lookup-charge', at: chargedAt, revision, feature, lookupId, subject, units, balances };
    }
    case 'DownloadReleased': {
      const { releasedAt, jobId } = event.data;
      return { kind: 'release', at: releasedAt, revision, feature: 'download', reference: jobId, balances };
    }
    case 'LookupReleased': {
      const { releasedAt, feature, lookupId } = event.data;
      return { kind: 'release', at: releasedAt, revision, feature, reference: lookupId, balances };
    }
    case 'ExtraUnitsGranted':
      return {
        kind: 'grant',
        at: event.data.grantedAt,
        revision,
        feature: event.data.feature,
        units: event.data.units,
        balances,
      };
    default:
      return null;
  }
}

function runningBalances(state: AccountState): RunningBalances {
  const result: RunningBalances = {};
  for (const feature of visibleFeatures(state)) {
    const balance = featureBalance(state, feature);
    result[feature] = { used: balance.used, remaining: balance.unlimited ? 'unlimited' : balance.remaining };
  }
  return result;
}

function compare(
  replayed: Partial<Record<FeatureId, FeatureBalance>>,
  readModel: Partial<Record<FeatureId, FeatureBalance>> | null,
): string[] {
  if (readModel === null) return ['the read model has no such account'];
  const differences: string[] = [];
  const features = new Set([...Object.keys(replayed), ...Object.keys(readModel)] as FeatureId[]);
  for (const feature of features) {
    const a = replayed[feature];
    const b = readModel[feature];
    if (a === undefined || b === undefined) {
      differences.push(`${feature}: present only in the ${a === undefined ? 'read model' : 'replay'}`);
      continue;
    }
    for (const field of ['granted', 'used', 'remaining', 'unlimited', 'resetsAt'] as const) {
      if (a[field] !== b[field])
        differences.push(`${feature}.${field}: replay ${String(a[field])}, read model ${String(b[field])}`);
    }
  }
  return differences;
}
