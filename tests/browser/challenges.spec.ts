// A challenge across two browsers, by clicks: one player challenges another
// from the leaderboard's link to their profile; the other, on the lobby
// (any open page), sees it and accepts; both land on the same table, the
// challenger with the colour they asked for. A declined challenge is told
// to the challenger once. Checked by axe in both languages and on a phone.
import { Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { test, expect, screenshot, waitForIsland } from './support/fixtures';
import { newPlayer, signUp } from './support/online';
import { startServer, RunningServer } from './support/server';

let server: RunningServer;
test.beforeAll(async () => {
  server = await startServer({ args: ['--client-ip-header', 'X-Real-IP'] });
});
test.afterAll(async () => {
  await server?.stop();
});

async function audit(page: Page, name: string): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${name}: ${v.id} ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(' | ')}`);
}

test('a challenge is sent from a profile, seen on the lobby of another browser and accepted', async ({ browser }, info) => {
  test.setTimeout(180_000);
  const errors: string[] = [];
  const stamp = Date.now().toString(36).slice(-5);
  const [ana, bo] = [`cha${stamp}`, `chb${stamp}`];
  const challenger = await newPlayer(browser, server.url, errors, '198.51.100.71');
  const challenged = await newPlayer(browser, server.url, errors, '198.51.100.72');
  await signUp(challenger, ana);
  await signUp(challenged, bo);
  // The challenged player waits on the lobby.
  await challenged.goto('/');
  await challenged.waitForFunction(() => document.body.dataset.hydrated === 'true');

  // A decline first: the challenger is told once.
  await challenger.goto(`/@/${bo}`);
  await challenger.waitForFunction(() => document.body.dataset.hydrated === 'true');
  await challenger.locator('#challenge form[data-live=true]').waitFor();
  await challenger.click('#challenge-send');
  await expect(challenger.locator('#challenge-note')).toContainText(bo);
  await expect(challenger.locator('#challenges')).toContainText(`Waiting for ${bo}`, { timeout: 20_000 });
  const incoming = challenged.locator('#challenges .challenge.incoming');
  await expect(incoming).toHaveCount(1, { timeout: 20_000 });
  await expect(incoming).toContainText(ana);
  await screenshot(challenged, info, 'challenge-incoming');
  const findings = await audit(challenged, 'challenge-incoming');
  await incoming.locator('.challenge-decline').click();
  await expect(incoming).toHaveCount(0);
  await expect(challenger.locator('#challenges')).toContainText('declined', { timeout: 20_000 });

  // Then from the leaderboard's link: rated, black, accepted.
  await challenger.goto('/players');
  await challenger.waitForFunction(() => document.body.dataset.hydrated === 'true');
  await challenger.goto(`/@/${bo}#challenge`);
  await challenger.waitForFunction(() => document.body.dataset.hydrated === 'true');
  await challenger.locator('#challenge form[data-live=true]').waitFor();
  await challenger.selectOption('#challenge-colour', 'black');
  await challenger.check('#challenge-rated');
  await challenger.click('#challenge-send');
  await expect(incoming).toHaveCount(1, { timeout: 20_000 });
  await expect(incoming).toContainText('rated');
  await expect(incoming).toContainText('you play white');
  await incoming.locator('.challenge-accept').click();
  await challenged.waitForURL(/\/table\//);
  await challenger.waitForURL(/\/table\//, { timeout: 20_000 });
  expect(challenger.url()).toBe(challenged.url());
  await waitForIsland(challenger);
  await waitForIsland(challenged);
  await expect(challenger.locator('#mode')).toContainText('rated');
  await expect(challenger.locator('#player-black')).toContainText(ana);
  await expect(challenger.locator('#player-white')).toContainText(bo);

  // Greek and a phone: the notifier and the form read in Greek, no sideways scroll.
  await challenged.goto(`/lang/el?back=/@/${ana}`);
  await challenged.waitForFunction(() => document.body.dataset.hydrated === 'true');
  await expect(challenged.locator('#challenge h2')).toContainText('Πρόκληση');
  await challenged.setViewportSize({ width: 390, height: 844 });
  await challenged.locator('#challenge form[data-live=true]').waitFor();
  await challenged.click('#challenge-send');
  await expect(challenger.locator('#challenges .challenge.incoming')).toHaveCount(1, { timeout: 20_000 });
  await expect(challenged.locator('#challenges')).toContainText('Περιμένεις', { timeout: 20_000 });
  const sideways = await challenged.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(sideways).toBeLessThanOrEqual(1);
  await screenshot(challenged, info, 'challenge-el-phone');
  findings.push(...(await audit(challenged, 'challenge-el-phone')));
  // Withdrawn: gone from the other player's page.
  await challenged.locator('.challenge-withdraw').click();
  await expect(challenger.locator('#challenges .challenge.incoming')).toHaveCount(0, { timeout: 20_000 });
  expect(findings).toEqual([]);
  expect(errors.filter((e) => !e.includes('favicon'))).toEqual([]);
});
