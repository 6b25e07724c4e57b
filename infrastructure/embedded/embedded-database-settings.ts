import { PGlite } from '@electric-sql/pglite';

/**
 * PostgreSQL's memory settings, sized for one connection on a small box
 * rather than a server's defaults (128 MB of shared buffers and more, all
 * resident in this process once touched). The embedded database holds one
 * service's jobs and accounts: its hot rows fit easily, and reads beyond
 * the buffers come from the operating system's file cache.
 */
const MEMORY_SETTINGS = {
  shared_buffers: '16MB',
  work_mem: '2MB',
  maintenance_work_mem: '16MB',
  temp_buffers: '2MB',
  wal_buffers: '1MB',
};

export const EMBEDDED_START_PARAMS = [...PGlite.defaultStartParams, ...Object.entries(MEMORY_SETTINGS).flatMap(([name, value]) => ['-c', `${name}=${value}`])];
