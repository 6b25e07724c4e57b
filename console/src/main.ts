import { clearAccount, showAccount } from './account-view.js';
import { Api, ApiError } from './api.js';
import { cancelledJobs } from './cancelled-jobs.js';
import { byId, show } from './dom.js';
import { JobView } from './job-view.js';
import { JobsView } from './jobs-view.js';
import { keyStore } from './key-store.js';
import { setUpSubmitForm } from './submit-form.js';
import { setUpBatchForm } from './batch-form.js';
import { BatchView } from './batch-view.js';
import { SubscriptionsView } from './subscriptions-view.js';
import { KeysView } from './keys-view.js';
import { StatementView } from './statement-view.js';
import { OperatorConsole, isOperatorToken } from './operator-console.js';

/** Wires the views: sign-in with a key, then the account, the form and the jobs, or one job (#/jobs/<id>). */

let api: Api | null = null;
const currentApi = (): Api => {
  if (api === null) throw new Error('Not signed in');
  return api;
};
const notice = (message: string) => {
  byId('notice').textContent = message;
};
const refreshAccountNow = () => {
  if (api !== null) showAccount(api).catch(handleFailure);
};
// A job's charge is settled a little after it ends, and /me shows it once settled: look again shortly, and every so often.
const ACCOUNT_REFRESH_DELAYS_MS = [0, 2_000, 6_000];
const ACCOUNT_REFRESH_INTERVAL_MS = 15_000;
const refreshAccount = () => {
  for (const delay of ACCOUNT_REFRESH_DELAYS_MS) setTimeout(refreshAccountNow, delay);
};
setInterval(refreshAccountNow, ACCOUNT_REFRESH_INTERVAL_MS);
const jobs = new JobsView(currentApi, notice, refreshAccount);
const job = new JobView(currentApi, refreshAccount);
const batch = new BatchView(currentApi, refreshAccount);
const subscriptions = new SubscriptionsView(currentApi, notice);
const keys = new KeysView(currentApi, notice);
const statement = new StatementView(currentApi);
const operator = new OperatorConsole(notice);

function handleFailure(error: unknown): void {
  if (error instanceof ApiError && error.status === 401) {
    signOut('The API key was refused; sign in again.');
    return;
  }
  notice((error as Error).message);
}

async function signIn(apiKey: string): Promise<boolean> {
  const candidate = new Api(apiKey);
  try {
    if (isOperatorToken(apiKey)) await operator.signIn(apiKey);
    else await showAccount(candidate);
  } catch (error) {
    byId('api-key-error').textContent =
      error instanceof ApiError && error.status === 401
        ? `That key was refused: ${error.message}`
        : (error as Error).message;
    byId('api-key').setAttribute('aria-invalid', 'true');
    return false;
  }
  keyStore.set(apiKey);
  show(byId('sign-in'), false);
  show(byId('sign-out'), true);
  if (operator.signedIn) {
    route();
    return true;
  }
  api = candidate;
  show(byId('signed-in'), true);
  route();
  return true;
}

/** Forgets the key and leaves nothing of the account on the page or in the address (a job's #/jobs/<id>). */
function signOut(message = ''): void {
  api = null;
  keyStore.clear();
  cancelledJobs.clear();
  jobs.clear();
  job.clear();
  batch.clear();
  subscriptions.clear();
  keys.clear();
  statement.clear();
  operator.signOut();
  clearAccount();
  if (location.hash !== '') history.replaceState(null, '', location.pathname + location.search);
  notice(message);
  show(byId('signed-in'), false);
  show(byId('sign-out'), false);
  show(byId('sign-in'), true);
  byId<HTMLInputElement>('api-key').value = '';
  byId('api-key').focus();
}

/** The lists, one job (#/jobs/<id>) or one batch (#/batches/<id>); the hash names an id only, never the key. */
function route(): void {
  if (operator.signedIn) {
    operator.route(location.hash);
    return;
  }
  if (api === null) return;
  notice('');
  const match = /^#\/(jobs|batches)\/(.+)$/.exec(location.hash);
  const page = match === null ? null : { kind: match[1], id: decodeURIComponent(match[2]) };
  for (const id of ['account', 'submit', 'batch-form-section', 'subscriptions', 'jobs', 'keys', 'statement'])
    show(byId(id), page === null);
  show(byId('job'), page?.kind === 'jobs');
  show(byId('batch'), page?.kind === 'batches');
  if (page?.kind !== 'jobs') job.stop();
  if (page?.kind !== 'batches') batch.stop();
  if (page === null) {
    void jobs.reload();
    void subscriptions.start();
    void keys.reload();
    void statement.reload();
    return;
  }
  jobs.stop();
  subscriptions.stop();
  if (page.kind === 'jobs') void job.open(page.id).then(() => byId('job-title').focus());
  else {
    byId('batch-title').focus();
    void batch.open(page.id);
  }
}

byId('job-title').tabIndex = -1;
byId('batch-title').tabIndex = -1;
byId<HTMLFormElement>('sign-in-form').addEventListener('submit', (event) => {
  event.preventDefault();
  byId('api-key-error').textContent = '';
  byId('api-key').removeAttribute('aria-invalid');
  const apiKey = byId<HTMLInputElement>('api-key').value.trim();
  if (apiKey === '') {
    byId('api-key-error').textContent = 'Paste an API key';
    return;
  }
  void signIn(apiKey);
});
byId('sign-out').addEventListener('click', () => signOut());
for (const id of ['back', 'batch-back'])
  byId(id).addEventListener('click', (event) => {
    event.preventDefault();
    location.hash = '';
  });
setUpBatchForm(currentApi, (batchId) => {
  notice('Batch submitted.');
  location.hash = `#/batches/${encodeURIComponent(batchId)}`;
});
window.addEventListener('hashchange', route);
setUpSubmitForm(
  currentApi,
  // A message about an earlier submission would read as the answer to this one.
  () => notice(''),
  (jobId) => {
    notice('Download submitted.');
    refreshAccount();
    void jobs.addSubmitted(jobId);
  },
);

const saved = keyStore.get();
if (saved === null || !(await signIn(saved))) signOut();
