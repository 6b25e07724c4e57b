import { PGlite } from '@electric-sql/pglite';

/**
 * PostgreSQL's memory settings, sized for one connection on a small box
 * rather than PGlite's defaults (160 MB of shared buffers, 64 MB of maintenance memory, all
 * resident in this process once touched). The embedded database holds one
 * service's jobs and accounts: its hot rows fit easily, and reads beyond
 * the buffers come from the operating system's file cache. PGlite runs
 * PostgreSQL as a single user, so shared memory sized for 100 connections
 * (the lock table, the backends' slots) is never used; with the WAL buffers
 * at their size for 8 MB of shared buffers, 4 MB less of the WebAssembly
 * memory is resident (21 -> 17 MB).
 */
const MEMORY_SETTINGS = {
  shared_buffers: '8MB',
  work_mem: '2MB',
  maintenance_work_mem: '8MB',
  temp_buffers: '2MB',
  wal_buffers: '256kB',
  max_connections: '5',
};

export const EMBEDDED_START_PARAMS = [
  ...PGlite.defaultStartParams,
  ...Object.entries(MEMORY_SETTINGS).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
];
