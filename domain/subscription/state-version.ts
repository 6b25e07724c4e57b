/**
 * The versions of the subscription's and the roster's states as their evolves fold them. Bump one whenever its evolve
 * or its state's shape changes what a history folds to: snapshots taken under another version are then ignored.
 */
export const SUBSCRIPTION_STATE_VERSION = 1;
export const ROSTER_STATE_VERSION = 1;
