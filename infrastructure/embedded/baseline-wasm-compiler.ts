import { setFlagsFromString } from 'node:v8';

/**
 * Compiles PGlite's WebAssembly with V8's baseline compiler only. By default
 * V8 recompiles the hot functions of PostgreSQL with its optimizing compiler
 * on background threads, and the memory those compilations take stays with
 * the threads' allocators for as long as the process runs (about 40 MB of
 * resident memory). Without it, start-up and initdb take half the CPU time;
 * a long run of inserts and reads takes about 15% more.
 * Set before the module is compiled: it holds for every module compiled after.
 */
export function useBaselineWasmCompiler(): void {
  setFlagsFromString('--liftoff-only');
}
