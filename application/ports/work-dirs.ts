/** Scratch directories for work in progress, one per attempt, removed afterwards. */
export interface WorkDirs {
  create(label: string): Promise<string>;
  remove(dir: string): Promise<void>;
}
