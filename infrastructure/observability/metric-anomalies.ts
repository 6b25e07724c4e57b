import { Counter, type Registry } from 'prom-client';
import type { Anomalies, AnomalyKind } from '../../application/ports/anomalies.js';
import type { Logger } from '../../application/ports/logger.js';

/** Anomalies as an error log line and the `vds_anomalies_total{kind}` counter to alert on. */
export class MetricAnomalies implements Anomalies {
  private readonly counter: Counter<'kind'>;

  constructor(
    registry: Registry,
    private readonly logger: Logger,
  ) {
    this.counter = new Counter({
      name: 'vds_anomalies_total',
      help: 'Events that need an operator: charges without a reservation, dead-lettered work',
      labelNames: ['kind'],
      registers: [registry],
    });
  }

  record(kind: AnomalyKind, details: Record<string, unknown>): void {
    this.counter.inc({ kind });
    this.logger.error({ anomaly: kind, ...details }, 'anomaly');
  }
}
