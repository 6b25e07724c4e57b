/**
 * The version of AccountState as evolve folds it. Bump it whenever evolve or
 * the state's shape changes what a history folds to: snapshots taken under
 * another version are then ignored and taken again.
 */
export const ACCOUNT_STATE_VERSION = 1;
