import assert from 'node:assert/strict';
import type { Knex } from 'knex';
import { OperatorTokens } from '../../application/operators/operator-tokens.js';
import { TOKENS } from '../../infrastructure/composition/tokens.js';
import { ensureDeadLetterTable } from '../../infrastructure/postgres/dead-letter-table.js';
import { workSubject } from '../../infrastructure/work-queue/work-subject.js';
import { accessibilityViolations, describeViolations } from '../support/accessibility-audit.js';
import { screenshot } from '../support/browser.js';
import { consoleInChromium } from '../support/console-in-chromium.js';

describe('web console in Chromium: the operator pages', function () {
  this.timeout(300_000);
  const web = consoleInChromium({ label: 'console_operator', screenshots: 'operator' });

  const operatorToken = async (scope: 'read' | 'write') => {
    const issued = await web.service.service.container.resolve(OperatorTokens).issue(`console ${scope}`, scope);
    await web.service.settle();
    return issued.token;
  };
  const signInAsOperator = async (token: string) => {
    await web.page.goto(`${web.service.url}/`);
    await web.page.getByLabel('API key').fill(token);
    await web.page.getByRole('button', { name: 'Sign in' }).click();
    await web.page.locator('#op-accounts').waitFor();
  };
  const expectNoViolations = async () => {
    const violations = await accessibilityViolations(web.page);
    assert.deepEqual(violations, [], describeViolations(violations));
  };

  it('searches accounts, opens one, changes its plan and suspends it behind confirmations, with no WCAG violation', async () => {
    const tag = `op${Date.now()}`;
    const { apiKey } = await web.service.createAccount({
      planId: 'starter',
      name: `Opal ${tag}`,
      email: `${tag}@example.com`,
    });
    await web.service.createAccount({ planId: 'growth', name: `Other ${tag}`, email: `${tag}@elsewhere.example.org` });
    await signInAsOperator(await operatorToken('write'));
    const { page } = web;
    await page.getByLabel('Name or email').fill(`${tag}@example`);
    await page.getByRole('button', { name: 'Search' }).click();
    await page
      .locator('#op-accounts-total')
      .filter({ hasText: /^1 account$/ })
      .waitFor();
    await expectNoViolations();

    await page.getByRole('link', { name: `Opal ${tag}` }).click();
    await page
      .locator('#op-account-summary')
      .filter({ hasText: /plan starter · active/ })
      .waitFor();
    await page.locator('#op-balances li').first().waitFor();
    await expectNoViolations();

    page.on('dialog', (dialog) => void dialog.accept());
    await page.getByLabel('New plan').selectOption('growth');
    await page.getByRole('button', { name: 'Change plan' }).click();
    await page
      .locator('#op-account-summary')
      .filter({ hasText: /plan growth/ })
      .waitFor();
    await screenshot(page, 'console-operator-account');
    await page.getByLabel('Suspension reason').fill('chargeback');
    await page.getByRole('button', { name: 'Suspend' }).click();
    await page
      .locator('#op-account-summary')
      .filter({ hasText: /suspended \(chargeback\)/ })
      .waitFor();
    const refused = await web.call('GET', '/api/v2/me', { key: apiKey });
    assert.equal(refused.status, 403);
    await page.getByRole('button', { name: 'Reactivate' }).click();
    await page
      .locator('#op-account-summary')
      .filter({ hasText: /· active ·/ })
      .waitFor();
    assert.equal((await web.call('GET', '/api/v2/me', { key: apiKey })).status, 200);

    await page.getByRole('button', { name: 'Close and erase' }).click();
    await page
      .locator('#op-account-summary')
      .filter({ hasText: /^\[erased[^\]]*\] · plan growth · closed · erased / })
      .waitFor();
    assert.match((await page.locator('#op-account-title').textContent()) ?? '', /^\[erased[^\]]*\]$/);
    assert.equal((await web.call('GET', '/api/v2/me', { key: apiKey })).status, 403);
  });

  it('shows the system and replays a dead letter; a read token’s write is refused on the page', async () => {
    const db = web.service.service.container.resolve<Knex>(TOKENS.database);
    await ensureDeadLetterTable(db);
    const subject = workSubject(web.service.config, 'download');
    const [{ id }] = await db('dead_letters')
      .insert({
        reason: 'max_deliveries',
        stream: 'console',
        consumer: 'c',
        stream_seq: Date.now(),
        subject,
        body: '{"jobId":"x"}',
      })
      .returning('id');
    await signInAsOperator(await operatorToken('write'));
    const { page } = web;
    page.on('dialog', (dialog) => void dialog.accept());
    await page.getByRole('link', { name: 'System' }).click();
    await page
      .locator('#op-processes li')
      .filter({ hasText: /^api on / })
      .first()
      .waitFor();
    await expectNoViolations();
    await page.getByRole('button', { name: `Replay dead letter ${id}` }).click();
    await page
      .locator('#op-dead-letters li')
      .filter({ hasText: new RegExp(`^#${id} .*replayed`) })
      .waitFor();
    await screenshot(page, 'console-operator-system');

    const { accountId } = await web.service.createAccount();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signInAsOperator(await operatorToken('read'));
    await page.goto(`${web.service.url}/#/admin/accounts/${accountId}`);
    await page
      .locator('#op-account-summary')
      .filter({ hasText: /active/ })
      .waitFor();
    web.consoleWatch.allowFailedResponse(403);
    await page.getByRole('button', { name: 'Close account' }).click();
    await page
      .locator('#op-account-error')
      .filter({ hasText: /may only read/ })
      .waitFor();
  });
});
