import type { Container } from '../composition/container.js';

/** Where a command writes: the terminal when run locally, the HTTP answer when the embedded service runs it. */
export interface CliOutput {
  out(text: string): void;
  err(text: string): void;
}

/** A CLI's work against a composed service; resolves to the process exit code. */
export type CliCommand = (args: string[], container: Container, io: CliOutput) => Promise<number>;
