import assert from 'node:assert/strict';
import { chmod, mkdtemp, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Registry } from 'prom-client';
import type { Logger } from '../../../application/ports/logger.js';
import { loadConfig } from '../../../infrastructure/config/config.js';
import { createYtDlpExtractor } from '../../../infrastructure/extractor/create-yt-dlp-extractor.js';
import { warmExtractorOptions } from '../../../infrastructure/extractor/warm/configure-warm-extractor.js';
import { pythonOfYtDlp } from '../../../infrastructure/extractor/warm/python-of-yt-dlp.js';
import { WarmExtractor } from '../../../infrastructure/extractor/warm/warm-extractor.js';
import { createLogger } from '../../../infrastructure/observability/create-logger.js';
import { installedYtDlpPath } from '../../../infrastructure/config/config.js';
import { ScriptedExtractor } from '../../support/scripted-extractor.js';

/** A yt-dlp stand-in of the given version whose `-J` reports, as the title, the arguments it was given. */
async function echoingYtDlp(version: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'echo-yt-dlp-'));
  const program = path.join(dir, 'yt-dlp');
  await writeFile(program, echoingScript(version));
  await chmod(program, 0o755);
  return program;
}

function echoingScript(version: string): string {
  return `#!/bin/sh\nif [ "$1" = "--version" ]; then echo ${version}; exit 0; fi\nprintf '{"id": "x", "title": "%s", "duration": 5}' "$*"\n`;
}

/** A warm helper whose answers report, as the title, the options it was started with. */
async function echoingHelper(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'echo-helper-'));
  const script = path.join(dir, 'helper.py');
  await writeFile(
    script,
    [
      'import json, os, sys',
      "argv = json.loads(os.environ['YT_DLP_HELPER_SETTINGS']).get('argv', [])",
      "print(json.dumps({'ready': True, 'version': 'echo'}), flush=True)",
      'for line in sys.stdin:',
      "    print(json.dumps({'id': json.loads(line)['id'], 'ok': True, 'info': {'id': 'x', 'title': ' '.join(argv), 'duration': 5}}), flush=True)",
      '',
    ].join('\n'),
  );
  return script;
}

/** Stands for the command line behind the helpers: a lookup that reaches it is visible as such. */
const noCommandLine = new ScriptedExtractor({
  probe: async () => ({ id: 'x', title: 'answered by the command line', duration: 5, liveStatus: null, tags: [] }),
});

describe('the options each yt-dlp version gets, as the service composes them', () => {
  async function argumentsGiven(version: string): Promise<string> {
    const config = loadConfig({
      YT_DLP_PATH: await echoingYtDlp(version),
      YT_DLP_EXTRACTOR_ARGS: 'youtube:player_client=default,mweb',
      YT_DLP_EXTRACTORS: 'youtube.*,generic',
    });
    const setup = createYtDlpExtractor(config.extractor, createLogger('silent'), new Registry());
    await setup.detected;
    return (await setup.extractor.probe('https://www.youtube.com/watch?v=abc')).title;
  }

  it('passes --js-runtimes with this Node and --use-extractors to a version that understands each, and the extractor arguments to every version', async () => {
    const current = await argumentsGiven('2026.08.19');
    assert.ok(current.includes(`--js-runtimes node:${process.execPath}`), current);
    assert.ok(current.includes('--extractor-args youtube:player_client=default,mweb'), current);
    assert.ok(current.includes('--use-extractors youtube.*,generic'), current);
    const old = await argumentsGiven('2023.03.04');
    assert.ok(!old.includes('--js-runtimes'), old);
    assert.ok(old.includes('--extractor-args youtube:player_client=default,mweb'), old);
    assert.ok(old.includes('--use-extractors youtube.*,generic'), old);
    const older = await argumentsGiven('2022.08.19');
    assert.ok(!older.includes('--use-extractors'), older);
  });

  it('gives the warm helpers the same: --js-runtimes and --use-extractors where understood, the extractor arguments always', async function () {
    this.timeout(30_000);
    const script = await echoingHelper();
    const python = (await pythonOfYtDlp(process.env.YT_DLP_PATH ?? installedYtDlpPath())) ?? ['python3'];
    const argumentsGiven = async (version: string) => {
      const config = loadConfig({
        YT_DLP_PATH: await echoingYtDlp(version),
        YT_DLP_EXTRACTOR_ARGS: 'youtube:player_client=default,mweb',
        YT_DLP_EXTRACTORS: 'youtube.*,generic',
      });
      const logger = createLogger('silent');
      const setup = createYtDlpExtractor(config.extractor, logger, new Registry());
      const warm = new WarmExtractor(noCommandLine, {
        ...warmExtractorOptions(config.extractor, setup, logger),
        python,
        script,
      });
      try {
        return (await warm.probe('https://www.youtube.com/watch?v=abc')).title;
      } finally {
        await warm.close();
      }
    };
    const current = await argumentsGiven('2026.08.19');
    assert.ok(current.includes(`--js-runtimes node:${process.execPath}`), current);
    assert.ok(current.includes('--extractor-args youtube:player_client=default,mweb'), current);
    assert.ok(current.includes('-J --no-playlist'), current);
    assert.ok(current.includes('--use-extractors youtube.*,generic'), current);
    const old = await argumentsGiven('2023.03.04');
    assert.ok(!old.includes('--js-runtimes'), old);
    assert.ok(old.includes('--extractor-args youtube:player_client=default,mweb'), old);
    assert.ok(old.includes('--use-extractors youtube.*,generic'), old);
  });

  it('warns at start-up when YT_DLP_EXTRACTORS is set for a yt-dlp that cannot take it, and passes it none', async () => {
    const warnings: string[] = [];
    const recording: Logger = {
      info() {},
      warn: (_fields, message) => void warnings.push(message),
      error() {},
      child: () => recording,
    };
    const config = loadConfig({ YT_DLP_PATH: await echoingYtDlp('2022.08.19'), YT_DLP_EXTRACTORS: 'youtube.*' });
    const setup = createYtDlpExtractor(config.extractor, recording, new Registry());
    await setup.detected;
    assert.ok(
      warnings.some((message) => message.includes('YT_DLP_EXTRACTORS')),
      JSON.stringify(warnings),
    );
    assert.ok(!(await setup.extractor.probe('https://www.youtube.com/watch?v=abc')).title.includes('--use-extractors'));
  });

  it('asks a yt-dlp replaced on disk for its version again before running it, and passes the new version its options', async () => {
    const program = await echoingYtDlp('2023.03.04');
    const setup = createYtDlpExtractor(
      loadConfig({ YT_DLP_PATH: program }).extractor,
      createLogger('silent'),
      new Registry(),
    );
    await setup.detected;
    const probe = async () => (await setup.extractor.probe('https://www.youtube.com/watch?v=abc')).title;
    assert.ok(!(await probe()).includes('--js-runtimes'));

    // Another process's self-update rewrites the file; this one never ran the update.
    await writeFile(program, echoingScript('2026.08.19'));
    const later = new Date(Date.now() + 10_000);
    await utimes(program, later, later);
    assert.ok(
      (await probe()).includes(`--js-runtimes node:${process.execPath}`),
      'the first run after the replacement',
    );
    assert.equal(setup.version().version, '2026.08.19');
  });

  it('restarts the warm helpers of a yt-dlp replaced on disk with the new version and its options', async function () {
    this.timeout(30_000);
    const program = await echoingYtDlp('2023.03.04');
    const config = loadConfig({ YT_DLP_PATH: program });
    const logger = createLogger('silent');
    const setup = createYtDlpExtractor(config.extractor, logger, new Registry());
    const python = (await pythonOfYtDlp(process.env.YT_DLP_PATH ?? installedYtDlpPath())) ?? ['python3'];
    const warm = new WarmExtractor(noCommandLine, {
      ...warmExtractorOptions(config.extractor, setup, logger),
      python,
      script: await echoingHelper(),
    });
    try {
      const probe = async () => (await warm.probe('https://www.youtube.com/watch?v=abc')).title;
      assert.ok(!(await probe()).includes('--js-runtimes'));
      await writeFile(program, echoingScript('2026.08.19'));
      const later = new Date(Date.now() + 10_000);
      await utimes(program, later, later);
      assert.ok((await probe()).includes(`--js-runtimes node:${process.execPath}`));
    } finally {
      await warm.close();
    }
  });

  it("counts this process's own self-update as another installation only when it replaced the program", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'updating-yt-dlp-'));
    const program = path.join(dir, 'yt-dlp');
    // Its first update replaces the program with one reporting a newer version; later ones find nothing newer and change nothing.
    await writeFile(path.join(dir, 'version'), '2025.01.01\n');
    const update =
      '[ -f "$dir/updated" ] || { echo 2026.08.19 > "$dir/version"; touch "$dir/updated"; cp "$0" "$0.new"; mv "$0.new" "$0"; }';
    // The update comes with other options (--ignore-config first), so the stand-in looks at every argument.
    await writeFile(
      program,
      `#!/bin/sh\ndir=$(dirname "$0")\ncase " $* " in\n  *" --version "*) cat "$dir/version" ;;\n  *" --update-to "*) ${update} ;;\nesac\n`,
    );
    await chmod(program, 0o755);
    const setup = createYtDlpExtractor(
      loadConfig({ YT_DLP_PATH: program, YT_DLP_UPDATE: 'stable' }).extractor,
      createLogger('silent'),
      new Registry(),
    );
    await setup.detected;
    assert.equal(await setup.installation(), 0);
    assert.equal(await setup.selfUpdate?.updateOnce(), true);
    assert.equal(setup.version().version, '2026.08.19');
    assert.equal(await setup.installation(), 1);
    assert.equal(await setup.selfUpdate?.updateOnce(), true);
    assert.equal(await setup.installation(), 1, 'an update that found nothing newer');
  });
});
