import pg from 'pg';

/**
 * A client for a connection that only LISTENs, so it sends nothing for hours. TCP keep-alives make one that died
 * silently (a dropped route, a vanished host, a NAT or firewall forgetting it) end in an error once the system's
 * probes give up (about 11 minutes with Linux's defaults), so its owner hears of the loss and connects again,
 * instead of waiting for notifications that can no longer come.
 */
export function listeningClient(connectionString: string): pg.Client {
  return new pg.Client({ connectionString, keepAlive: true, keepAliveInitialDelayMillis: 10_000 });
}
