import type { Api } from './api.js';
import type { FeatureBalance, Me } from './api-types.js';
import { byId, el } from './dom.js';
import { formatCount, formatDate } from './format.js';

const FEATURE_NAMES: Record<string, string> = {
  download_count: 'Downloads',
  bandwidth_mb: 'Bandwidth (MB)',
  info: 'Info lookups',
  client_download: 'Client downloads',
  channel_list: 'Channel listings',
};

/** GET /me as the plan's name, its renewal date and one bar per balance. */
export async function showAccount(api: Api): Promise<Me> {
  const me = await api.request<Me>('GET', '/me');
  const renewal =
    me.plan.renewsAt === null ? 'one-off allowance, never renews' : `renews ${formatDate(me.plan.renewsAt)}`;
  const cancel = me.plan.canceledAt === null ? '' : `; cancels ${formatDate(me.plan.canceledAt)}`;
  const { held, allowance } = me.subscriptions;
  const subscriptions = ` · ${formatCount(held)} of ${formatCount(allowance)} subscriptions`;
  byId('plan').textContent = `${me.name} (${me.email}) · plan ${me.plan.id}, ${renewal}${cancel}${subscriptions}`;
  byId('balances').replaceChildren(
    ...Object.entries(me.balances).map(([feature, balance]) => balanceItem(feature, balance)),
  );
  return me;
}

/** Nothing of the account left on the page (after signing out). */
export function clearAccount(): void {
  byId('plan').textContent = '';
  byId('balances').replaceChildren();
}

/** One balance as a labelled bar (none for an unlimited one) and its words. */
export function balanceItem(feature: string, balance: FeatureBalance): HTMLElement {
  const labelId = `balance-${feature}`;
  const name = FEATURE_NAMES[feature] ?? feature;
  const words = balance.unlimited
    ? 'unlimited'
    : `${formatCount(balance.used)} used of ${formatCount(balance.granted)}, ${formatCount(balance.remaining)} left`;
  const resets = balance.resetsAt === null ? '' : ` · resets ${formatDate(balance.resetsAt)}`;
  const meter = balance.unlimited
    ? null
    : el('meter', {
        min: '0',
        max: String(Math.max(balance.granted, 1)),
        value: String(Math.min(balance.used, Math.max(balance.granted, 1))),
        high: String(balance.granted * 0.9),
        'aria-labelledby': labelId,
      });
  return el(
    'li',
    { 'data-feature': feature, 'data-used': String(balance.used) },
    el('strong', { id: labelId }, name),
    meter,
    el('span', {}, words + resets),
  );
}
