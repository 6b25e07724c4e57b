import assert from 'node:assert/strict';
import { AccountAdministration } from '../../application/accounts/account-administration.js';
import { accessibilityViolations, describeViolations } from '../support/accessibility-audit.js';
import { consoleInChromium } from '../support/console-in-chromium.js';

describe('web console in Chromium: the account’s keys and statement, and an accessibility audit', function () {
  this.timeout(300_000);
  const web = consoleInChromium({ label: 'console_account', screenshots: 'account' });

  it('issues a read-only key shown once, lists keys with their last use, revokes one behind a confirmation', async () => {
    const { apiKey } = await web.service.createAccount({ planId: 'starter' });
    await web.signIn(apiKey);
    const { page } = web;
    await page.locator('#key-list li').first().waitFor();
    await page.getByLabel('Key name').fill('dashboard');
    await page.getByLabel(/Read-only/).check();
    await page.getByRole('button', { name: 'Issue key' }).click();
    const shown = await page.locator('#new-key-value').filter({ hasText: /^vds_/ }).textContent();
    const row = page.locator('#key-list li').filter({ hasText: 'dashboard' });
    await row.filter({ hasText: /read-only · issued .* · never used/ }).waitFor();
    await page
      .locator('#key-list li')
      .first()
      .filter({ hasText: /full access .* last used/ })
      .waitFor();
    assert.equal((await web.call('POST', '/api/v2/download', { key: String(shown), json: {} })).status, 403);

    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Revoke dashboard' }).click();
    await row.waitFor({ state: 'detached' });
    assert.equal((await web.call('GET', '/api/v2/me', { key: String(shown) })).status, 401);
  });

  it('shows the statement’s last 30 days, newest first', async () => {
    const { accountId, apiKey } = await web.service.createAccount({ planId: 'starter' });
    await web.service.service.container.resolve(AccountAdministration).grantExtraUnits(accountId, 'info', 9, 'thanks');
    await web.service.settle();
    await web.signIn(apiKey);
    const rows = web.page.locator('#statement-rows tr');
    await rows
      .first()
      .filter({ hasText: /Units granted.*9 info/ })
      .waitFor();
    assert.match(String(await rows.last().textContent()), /New period.*plan starter/);
  });

  it('has no WCAG 2 A or AA violation signed out, or signed in with every section filled', async () => {
    const { page } = web;
    await page.goto(`${web.service.url}/`);
    await page.getByLabel('API key').waitFor();
    let violations = await accessibilityViolations(page);
    assert.deepEqual(violations, [], describeViolations(violations));
    const { accountId, apiKey } = await web.service.createAccount({ planId: 'growth', addOns: ['channel_list'] });
    await web.service.service.container.resolve(AccountAdministration).grantExtraUnits(accountId, 'info', 1);
    await web.service.settle();
    await web.signIn(apiKey);
    await page.locator('#statement-rows tr').first().waitFor();
    await page.locator('#key-list li').first().waitFor();
    violations = await accessibilityViolations(page);
    assert.deepEqual(violations, [], describeViolations(violations));
  });
});
