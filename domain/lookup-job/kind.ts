/** What tells one kind of lookup job from another; the rest of the model is shared. */
export interface LookupJobKind<Name extends string, Result> {
  /** What its events and commands are named after (see names.ts). */
  name: Name;
  /** Its jobs live in `<category>-<jobId>`; stream categories carry no dash (see stream-name.ts). */
  category: string;
  /** Throws InvalidTransitionError for a result the kind cannot succeed with. */
  checkResult?: (jobId: string, result: Result) => void;
}
