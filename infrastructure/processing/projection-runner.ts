import type { Checkpoint } from '../../application/ports/event-store.js';
import {
  CheckpointedProcessor,
  type CheckpointedProcessorOptions,
  type WaitOptions,
} from './checkpointed-processor.js';
import type { Projection } from '../../projections/projection.js';

export type ProjectionRunnerOptions = CheckpointedProcessorOptions;

/**
 * Keeps projections up to date, each on its own checkpoint, subscription and
 * advisory lock, so a slow or failing projection holds back only itself and
 * each can be active in a different process.
 */
export class ProjectionRunner {
  private readonly processors: ReadonlyMap<string, CheckpointedProcessor>;

  constructor(projections: readonly Projection[], options: ProjectionRunnerOptions) {
    const processors = new Map<string, CheckpointedProcessor>();
    for (const projection of projections) {
      if (processors.has(projection.name)) throw new Error(`Two projections are named ${projection.name}`);
      processors.set(projection.name, new CheckpointedProcessor(projection, options));
    }
    this.processors = processors;
  }

  async start(): Promise<void> {
    for (const processor of this.processors.values()) await processor.start();
  }

  /** Lets each projection's batch under way commit, then releases the locks. */
  async stop(): Promise<void> {
    await Promise.all([...this.processors.values()].map((processor) => processor.stop()));
  }

  /** Names of the projections this instance currently runs (holds the lock of). */
  activeProjections(): string[] {
    return [...this.processors.values()].filter((processor) => processor.isActive).map((processor) => processor.name);
  }

  /** Names of the projections this instance cannot run now: their last batch or read failed, and they keep trying. */
  failingProjections(): string[] {
    return [...this.processors.values()].filter((processor) => processor.isFailing).map((processor) => processor.name);
  }

  /**
   * Resolves once the named projections (all by default) have handled every
   * event at or before `target` that concerns them (see
   * CheckpointedProcessor.waitUntilCaughtUp); for read-your-writes, pass the
   * position an append returned.
   */
  async waitUntilCaughtUp(
    target: Checkpoint | null = null,
    options: WaitOptions & { projections?: readonly string[] } = {},
  ): Promise<void> {
    const names = options.projections ?? [...this.processors.keys()];
    await Promise.all(
      names.map((name) => {
        const processor = this.processors.get(name);
        if (processor === undefined) throw new Error(`No projection named ${name}`);
        return processor.waitUntilCaughtUp(target, options);
      }),
    );
  }
}
