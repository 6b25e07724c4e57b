/**
 * Monthly billing periods anchored at the plan's start: period k runs from
 * anchor + k months to anchor + k+1 months, so periods never drift when a
 * month is shorter than the anchor's day (Jan 31 -> Feb 28 -> Mar 31).
 */
export function addMonthsUtc(epochMs: number, months: number): number {
  const start = new Date(epochMs);
  const targetMonthIndex = start.getUTCMonth() + months;
  const year = start.getUTCFullYear() + Math.floor(targetMonthIndex / 12);
  const month = ((targetMonthIndex % 12) + 12) % 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const day = Math.min(start.getUTCDate(), lastDay);
  return Date.UTC(
    year,
    month,
    day,
    start.getUTCHours(),
    start.getUTCMinutes(),
    start.getUTCSeconds(),
    start.getUTCMilliseconds(),
  );
}

export interface BillingPeriod {
  index: number;
  start: number;
  end: number;
}

/** The period, counted from `anchor`, that contains `now`. */
export function periodContaining(anchor: number, now: number): BillingPeriod {
  let index = Math.max(0, Math.floor((now - anchor) / (31 * 24 * 3600 * 1000)));
  while (addMonthsUtc(anchor, index + 1) <= now) index += 1;
  while (index > 0 && addMonthsUtc(anchor, index) > now) index -= 1;
  return { index, start: addMonthsUtc(anchor, index), end: addMonthsUtc(anchor, index + 1) };
}
