// The site in Greek and English: the language comes from Accept-Language on a
// first visit, is rendered on the server (no English before hydration), can be
// switched on every page with the EL/EN switch, and is remembered (cookie).
import { test, expect, waitForIsland, screenshot } from './support/fixtures';
import { startVsAi, waitForTurnOrEnd } from './support/board';
import { Page } from '@playwright/test';

test.use({ locale: 'el-GR', extraHTTPHeaders: { 'Accept-Language': 'el' } });

/** Buttons and button-like links whose text does not fit their box. */
async function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll('button, a.button, a.account-link, .lang-switch'))
      .filter((e) => (e as HTMLElement).offsetParent !== null && getComputedStyle(e).visibility !== 'hidden')
      .filter((e) => e.scrollWidth > e.clientWidth + 1 || e.getBoundingClientRect().right > window.innerWidth + 1)
      .map((e) => `${e.id || e.className}: ${e.textContent?.trim()}`),
  );
}

test('Greek from Accept-Language, rendered on the server, switched to English and back', async ({ page, consoleErrors }, info) => {
  // The HTML the server sends, before any script runs.
  const lobbyHtml = await (await page.request.get('/', { headers: { 'Accept-Language': 'el-GR,el;q=0.9,en;q=0.5' } })).text();
  expect(lobbyHtml).toContain('<html lang="el"');
  expect(lobbyHtml).toContain('Παίξε με τον υπολογιστή');
  expect(lobbyHtml).toContain('Οθέλλο 3D');
  expect(lobbyHtml).not.toContain('Play the AI');
  // English browsers get English.
  const englishHtml = await (await page.request.get('/', { headers: { 'Accept-Language': 'en-US,en;q=0.9' } })).text();
  expect(englishHtml).toContain('<html lang="en"');
  expect(englishHtml).toContain('Play the AI');

  await page.goto('/');
  await waitForIsland(page);
  await expect(page.locator('html')).toHaveAttribute('lang', 'el');
  await expect(page.locator('#vs-ai h2')).toHaveText('Παίξε με τον υπολογιστή');
  // The header's longer Greek words are whole on a desktop screen (the
  // suite's 1100 px; "Δημιουργία λογαριασμού" was cut to "Δημιουργία λογαρ…").
  expect(await overflowing(page)).toEqual([]);
  await expect(page.locator('#start-hot-seat')).toHaveText('Παίξε δύο σε μία οθόνη');
  await expect(page.locator('#lang-el')).toHaveAttribute('aria-current', 'true');
  await screenshot(page, info, 'i18n-lobby-el');

  // A table, in Greek, server-rendered too.
  await page.click('#start-hot-seat');
  await page.waitForURL(/\/table\//);
  const tableUrl = new URL(page.url()).pathname;
  const tableHtml = await (await page.request.get(tableUrl)).text();
  expect(tableHtml).toContain('<html lang="el"');
  expect(tableHtml).toContain('Σκορ');
  expect(tableHtml).toContain('Παίζουν τα μαύρα');
  expect(tableHtml).not.toContain('Tally');
  await waitForIsland(page);
  await expect(page.locator('#turn')).toHaveText('Παίζουν τα μαύρα');
  await expect(page.locator('#rules-toggle')).toHaveAttribute('aria-label', 'Κανόνες');
  await expect(page.locator('#rules h2').first()).toHaveText('Πώς παίζεται το Οθέλλο');
  await screenshot(page, info, 'i18n-table-el');

  // Switch to English: the same table, now in English, remembered.
  await page.click('#lang-en');
  await page.waitForURL((url) => url.pathname === tableUrl);
  await waitForIsland(page);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.locator('#turn')).toHaveText('Black to move');
  await expect(page.locator('#tally h2')).toHaveText('Tally');
  const cookies = await page.context().cookies();
  expect(cookies.find((c) => c.name === 'lang')?.value).toBe('en');
  // The cookie wins over Accept-Language: the lobby stays English.
  await page.goto('/');
  await waitForIsland(page);
  await expect(page.locator('#vs-ai h2')).toHaveText('Play the AI');
  await screenshot(page, info, 'i18n-lobby-en');

  // And back to Greek.
  await page.click('#lang-el');
  await page.waitForURL((url) => url.pathname === '/');
  await waitForIsland(page);
  await expect(page.locator('#vs-ai h2')).toHaveText('Παίξε με τον υπολογιστή');
  expect(consoleErrors).toEqual([]);
});

test('a server refusal is shown in Greek', async ({ page, consoleErrors }) => {
  // A malformed position: the server refuses it in English; the page shows Greek.
  await page.goto('/');
  await waitForIsland(page);
  // "Start from a position" is under the lobby's "More ways to start".
  await page.click('#more-choices > summary');
  await page.fill('#start-obf', 'not a position');
  await page.click('#start-obf-hot-seat');
  await expect(page.locator('.lobby-panel p.error')).toContainText('δεν είναι έγκυρη θέση OBF');
  consoleErrors.length = 0;
});

test('Greek fits a narrow phone screen (390×844)', async ({ page, consoleErrors }, info) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  await waitForIsland(page);
  expect(await overflowing(page)).toEqual([]);
  await screenshot(page, info, 'i18n-lobby-el-mobile');
  await page.locator('#from-position').scrollIntoViewIfNeeded();
  await screenshot(page, info, 'i18n-lobby-el-mobile-lower');
  await page.click('#start-hot-seat');
  await page.waitForURL(/\/table\//);
  await waitForIsland(page);
  expect(await overflowing(page)).toEqual([]);
  await screenshot(page, info, 'i18n-table-el-mobile');
  await page.locator('.card.actions').scrollIntoViewIfNeeded();
  await screenshot(page, info, 'i18n-table-el-mobile-lower');
  expect(consoleErrors).toEqual([]);
});

test('a lab game started in Greek is explained in Greek, also after a reload and a switch', async ({ page, consoleErrors }, info) => {
  await page.goto('/lab');
  await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
  await expect(page.locator('#provider-status')).toContainText('Ενσωματωμένος εξηγητής');
  await page.selectOption('#black-depth', '1');
  await page.selectOption('#white-depth', '1');
  await page.click('#new-lab');
  await page.waitForURL(/\/lab\/[0-9a-f]+$/);
  await waitForIsland(page);
  await expect(page.locator('#lab-status')).toContainText('Παίζουν τα μαύρα (βάθος 1)');
  await page.click('#next-turn');
  const card = page.locator('#explanation-card');
  await expect(card).toHaveAttribute('data-state', 'ready');
  await expect(page.locator('#explanation')).toContainText(/^Τα μαύρα έπαιξαν [a-h][1-8] και γύρισαν 1 πούλι/);
  await expect(page.locator('#lesson')).not.toContainText(/\b(the|and)\b/);
  await screenshot(page, info, 'i18n-lab-el');
  // Switched to English, the page is English but the game keeps its language:
  // the next explanation is Greek too.
  await page.click('#lang-en');
  await page.waitForURL(/\/lab\/[0-9a-f]+$/);
  await waitForIsland(page);
  await expect(page.locator('#lab-status')).toContainText('White to move (depth 1)');
  await page.click('#next-turn');
  await expect(card).toHaveAttribute('data-ply', '2');
  await expect(card).toHaveAttribute('data-state', 'ready');
  await expect(page.locator('#explanation')).toContainText(/^Τα λευκά έπαιξαν/);
  // The text export is in the game's language.
  const exported = await (await page.request.get(`${new URL(page.url()).pathname}/export.txt`)).text();
  expect(exported).toContain('Οθέλλο 3D — παρτίδα εργαστηρίου AI');
  expect(exported).toContain('Μάθημα:');
  expect(consoleErrors).toEqual([]);
});

test('the Greek table offers a Υπόδειξη, and counts of one read in the singular in both languages', async ({ page, consoleErrors }, info) => {
  // Playing White at depth 1: the AI (Black) moves first, looking 1 move ahead,
  // and its first move flips exactly 1 disc.
  await startVsAi(page, 1, 'white');
  await waitForIsland(page);
  await waitForTurnOrEnd(page);
  await expect(page.locator('#hint')).toHaveText('Υπόδειξη');
  await expect(page.locator('#ai-search')).toHaveText(/^Ο υπολογιστής σκέφτηκε 1 κίνηση μπροστά \(δικές του και δικές σου\) και ζύγισε (1 θέση|\d+ θέσεις) πριν παίξει\.$/);
  await expect(page.locator('#history li').first()).toHaveText(/^(\d+\.\s*)?Μαύρα [a-h][1-8] — γυρίζει 1$/);
  expect(await overflowing(page)).toEqual([]);
  await screenshot(page, info, 'i18n-table-el-vs-ai');

  // The same table in English.
  const tableUrl = new URL(page.url()).pathname;
  await page.click('#lang-en');
  await page.waitForURL((url) => url.pathname === tableUrl);
  await waitForIsland(page);
  await expect(page.locator('#hint')).toHaveText('Hint');
  await expect(page.locator('#ai-search')).toHaveText(/^The AI thought 1 move ahead \(its own and yours\) and weighed (1 position|\d+ positions) before it played\.$/);
  await expect(page.locator('#history li').first()).toHaveText(/^(\d+\.\s*)?Black [a-h][1-8] — flips 1$/);
  expect(consoleErrors).toEqual([]);
});
