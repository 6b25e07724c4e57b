import { type DecisionsByType, decideByType } from '../decide-by-type.js';
import { NotFoundError } from '../errors.js';
import { completeCheck, failCheck, startCheck } from './check-decisions.js';
import type { CreateSubscription, SubscriptionCommand } from './commands.js';
import type { SubscriptionEvent } from './events.js';
import {
  changeFormat,
  changeInterval,
  createSubscription,
  deleteSubscription,
  pauseSubscription,
  requestCheck,
  resumeSubscription,
} from './lifecycle-decisions.js';
import type { SubscriptionContext, SubscriptionState } from './state.js';
import { refuseSubmission, submitVideos } from './submission-decisions.js';

/** The commands an existing subscription takes, from the account's user or from the checks that run it. */
const ON_SUBSCRIPTION: DecisionsByType<
  Exclude<SubscriptionCommand, CreateSubscription>,
  SubscriptionContext,
  SubscriptionEvent
> = {
  StartCheck: startCheck,
  CompleteCheck: completeCheck,
  FailCheck: failCheck,
  SubmitVideos: submitVideos,
  RefuseSubmission: refuseSubmission,
  PauseSubscription: pauseSubscription,
  ResumeSubscription: resumeSubscription,
  ChangeInterval: changeInterval,
  ChangeFormat: changeFormat,
  RequestCheck: requestCheck,
  DeleteSubscription: deleteSubscription,
};

/**
 * One subscription to a channel or playlist: checks come due on its own
 * phase of its interval, each records the videos it saw, and each video it
 * takes gets one job, at most, whatever restarts happen. Commands from the
 * checks arrive at least once, so repeating what already happened does nothing.
 */
export function decideSubscription(command: SubscriptionCommand, state: SubscriptionState): SubscriptionEvent[] {
  if (command.type === 'CreateSubscription') return createSubscription(command.data, state);
  if (state.status === 'none') throw new NotFoundError(`Subscription ${command.data.subscriptionId} not found`);
  const { subscriptionId, accountId } = state.created;
  return decideByType(ON_SUBSCRIPTION, command, { state, subscriptionId, accountId });
}
