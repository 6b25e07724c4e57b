import Mocha from 'mocha';

const { EVENT_HOOK_END, EVENT_RUN_BEGIN, EVENT_RUN_END, EVENT_TEST_END } = Mocha.Runner.constants;

/**
 * The spec reporter, then each spec file's time (its tests and hooks added
 * up, so the figures mean the same in a serial and a parallel run) and the
 * run's wall time: `mocha --reporter build/test/support/file-times-reporter.js`.
 * `--reporter-option top=N` prints N files instead of 25.
 */
class FileTimesReporter extends Mocha.reporters.Spec {
  constructor(runner: Mocha.Runner, options: Mocha.MochaOptions) {
    super(runner, options);
    const times = new Map<string, number>();
    const add = (runnable: Mocha.Runnable) => {
      const file = runnable.file ?? '(root hooks)';
      times.set(file, (times.get(file) ?? 0) + (runnable.duration ?? 0));
    };
    let startedAt = Date.now();
    runner.once(EVENT_RUN_BEGIN, () => {
      startedAt = Date.now();
    });
    runner.on(EVENT_TEST_END, add);
    runner.on(EVENT_HOOK_END, add);
    runner.once(EVENT_RUN_END, () => {
      const top = Number((options.reporterOptions as Record<string, string> | undefined)?.top ?? 25);
      const sorted = [...times].sort((a, b) => b[1] - a[1]);
      const total = sorted.reduce((sum, [, ms]) => sum + ms, 0);
      console.log(
        `\n  Slowest spec files (tests and hooks added up; ${sorted.length} files, ${seconds(total)} in all):`,
      );
      for (const [file, ms] of sorted.slice(0, top))
        console.log(`  ${seconds(ms).padStart(8)}  ${file.replace(`${process.cwd()}/`, '')}`);
      console.log(`  Wall time: ${seconds(Date.now() - startedAt)}\n`);
    });
  }
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

export = FileTimesReporter;
