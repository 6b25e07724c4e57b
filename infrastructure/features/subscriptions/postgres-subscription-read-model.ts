import type { Knex } from 'knex';
import type {
  DueCheck,
  SubscriptionReadModel,
  SubscriptionRow,
} from '../../../application/subscriptions/subscription-read-model.js';
import { type SubscriptionView, subscriptionView } from '../../../application/subscriptions/subscription-view.js';
import type { LiveSubscriptionState } from '../../../domain/subscription/state.js';

interface Row {
  state: unknown;
  last_revision: number;
}

/** The subscriptions' read model in PostgreSQL (or PGlite). */
export class PostgresSubscriptionReadModel implements SubscriptionReadModel {
  constructor(private readonly db: Knex) {}

  async get(subscriptionId: string): Promise<SubscriptionRow | null> {
    const row: Row | undefined = await this.db('subscriptions').where({ subscription_id: subscriptionId }).first();
    return row === undefined ? null : { view: viewOf(row), revision: row.last_revision };
  }

  async list(accountId: string, offset: number, limit: number): Promise<{ items: SubscriptionView[]; total: number }> {
    const live = () => this.db('subscriptions').where({ account_id: accountId }).whereNot({ status: 'deleted' });
    const [rows, counted] = await Promise.all([
      live()
        .orderBy([{ column: 'created_at' }, { column: 'subscription_id' }])
        .offset(offset)
        .limit(limit),
      live().count<{ count: string | number }[]>({ count: '*' }),
    ]);
    const items = (rows as Row[]).flatMap((row) => viewOf(row) ?? []);
    return { items, total: Number(counted[0]?.count ?? 0) };
  }

  async due(now: Date, staleBefore: Date, limit: number): Promise<DueCheck[]> {
    const rows: Array<{ subscription_id: string; due_at: Date | string }> = await this.db
      .select('subscription_id', this.db.raw('coalesce(next_check_at, check_started_at) AS due_at'))
      .from('subscriptions')
      .where({ status: 'active' })
      .andWhere((query) => query.where('next_check_at', '<=', now).orWhere('check_started_at', '<', staleBefore))
      .orderBy('due_at')
      .limit(limit);
    return rows.map((row) => ({ subscriptionId: row.subscription_id, dueAt: new Date(row.due_at).toISOString() }));
  }
}

function viewOf(row: Row): SubscriptionView | null {
  const state = (typeof row.state === 'string' ? JSON.parse(row.state) : row.state) as LiveSubscriptionState;
  return subscriptionView(state);
}
