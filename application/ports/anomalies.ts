/**
 * What should never happen in normal operation but must not stop the work
 * either: counted and logged so that operators are alerted.
 */
export type AnomalyKind = 'charge_without_reservation' | 'dead_letter';

export interface Anomalies {
  record(kind: AnomalyKind, details: Record<string, unknown>): void;
}
