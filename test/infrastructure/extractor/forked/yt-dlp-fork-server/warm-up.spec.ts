import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { installedYtDlpPath } from '../../../../../infrastructure/config/config.js';
import { pythonOfYtDlp } from '../../../../../infrastructure/extractor/warm/python-of-yt-dlp.js';

const run = promisify(execFile);
const YT_DLP = process.env.YT_DLP_PATH ?? installedYtDlpPath();
// From build/test/infrastructure/extractor/forked/yt-dlp-fork-server/ to the source tree's script.
const SERVER = path.resolve(__dirname, '../../../../../..', 'infrastructure/extractor/forked/yt_dlp_fork_server.py');

/**
 * Loads the server's script as a module (its main() not run), calls its
 * warm-up when asked, and reports how many extractors have their URL pattern
 * compiled on their own class, as yt-dlp keeps it once matched, of how many.
 */
const COUNT_COMPILED = `
import runpy, sys
server = runpy.run_path(sys.argv[1], run_name='warm_up_check')
if sys.argv[2] == 'warm':
    server['warm_up']([])
from yt_dlp.extractor import gen_extractor_classes
classes = list(gen_extractor_classes())
print(sum('_VALID_URL_RE' in vars(extractor) for extractor in classes), len(classes))
`;

async function compiledPatterns(warm: boolean): Promise<{ compiled: number; extractors: number }> {
  const python = (await pythonOfYtDlp(YT_DLP)) ?? ['python3'];
  const [program, ...args] = python;
  const { stdout } = await run(program, [...args, '-c', COUNT_COMPILED, SERVER, warm ? 'warm' : 'cold'], {
    // A zipapp release is imported from the program itself, as the server is launched.
    env: { ...process.env, PYTHONPATH: YT_DLP },
  });
  const [compiled, extractors] = stdout.trim().split(' ').map(Number);
  return { compiled, extractors };
}

describe('the yt-dlp fork server’s warm-up', function () {
  this.timeout(60_000);

  it('compiles every extractor’s URL pattern before it forks, so no forked download matches a URL against them cold', async () => {
    const cold = await compiledPatterns(false);
    assert.equal(cold.compiled, 0, 'loading the script compiles nothing by itself');
    const warm = await compiledPatterns(true);
    assert.ok(warm.extractors > 100, `yt-dlp lists ${warm.extractors} extractors`);
    // A handful of extractors match URLs by other means than a pattern of their own.
    assert.ok(warm.compiled >= warm.extractors * 0.95, `${warm.compiled} of ${warm.extractors} patterns compiled`);
  });
});
