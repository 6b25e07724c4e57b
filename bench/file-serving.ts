import { readFile } from 'node:fs/promises';
import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DownloadLinks } from '../application/ports/download-links.js';
import type { FileStore } from '../application/ports/file-store.js';
import { TOKENS } from '../infrastructure/composition/tokens.js';
import type { Driver } from './driver.js';
import type { ServiceProcess } from './service-process.js';
import { QUICK } from './settings.js';
import { timedProcess } from './timed-process.js';

/** A large file streamed through the signed-link route to curl: the service process's peak RSS growth against the file's size. */
export async function benchFileServing(service: ServiceProcess, driver: Driver): Promise<void> {
  const files = driver.container.resolve<FileStore>(TOKENS.fileStore);
  const links = driver.container.resolve<DownloadLinks>(TOKENS.downloadLinks);
  const scratch = await mkdtemp(path.join(tmpdir(), 'bench-file-'));
  const size = (QUICK ? 128 : 512) * 2 ** 20;
  try {
    const big = path.join(scratch, 'big.bin');
    await writeFile(big, Buffer.alloc(0));
    await truncate(big, size);
    await files.put('bench/big.bin', big);
    const link = links.linkFor(
      { jobId: 'bench', fileKey: 'bench/big.bin', filename: 'big.bin', completedAt: new Date().toISOString() },
      new Date(),
    );
    const before = await rssOf(service.pid);
    let peak = before;
    const sampler = setInterval(() => {
      rssOf(service.pid).then(
        (rss) => (peak = Math.max(peak, rss)),
        () => undefined,
      );
    }, 20);
    const { ms } = await timedProcess('curl', ['-sS', '-f', '-o', '/dev/null', link]);
    clearInterval(sampler);
    console.log(
      `file serving: ${(size / 2 ** 20).toFixed(0)} MiB to curl in ${(ms / 1000).toFixed(2)} s; service peak RSS growth ${((peak - before) / 2 ** 20).toFixed(1)} MiB = ${(((peak - before) / size) * 100).toFixed(2)}% of the file`,
    );
    await files.remove('bench/big.bin');
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

async function rssOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = /^VmRSS:\s+(\d+) kB/m.exec(status);
  return kib === null ? 0 : Number(kib[1]) * 1024;
}
