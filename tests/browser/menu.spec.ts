// The site menu on every page (app/src/menu.rs): every section linked from
// every page in both languages, written by the server and left alone by
// hydration; on a phone a "Menu" button that opens the same links; the
// player search from any page; the phone lobby's three ways to play on its
// first screen.
import { test, expect, screenshot } from './support/fixtures';
import type { Page } from '@playwright/test';

const SECTIONS = ['/', '/puzzles', '/tournaments', '/analysis', '/players', '/bots', '/lab', '/account'];
const GREEK = { locale: 'el-GR', extraHTTPHeaders: { 'Accept-Language': 'el' } };
const WORDS = {
  en: { play: 'Play', puzzles: 'Puzzles', tournaments: 'Tournaments', analysis: 'Analysis board', players: 'Players', bots: 'Bots', lab: 'AI lab', account: 'Sign in', button: 'Menu' },
  el: { play: 'Παίξε', puzzles: 'Γρίφοι', tournaments: 'Τουρνουά', analysis: 'Ταμπλό ανάλυσης', players: 'Παίκτες', bots: 'Μποτ', lab: 'Εργαστήριο AI', account: 'Σύνδεση', button: 'Μενού' },
};

async function hydrated(page: Page) {
  await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
}

/** The menu's links (wide bar or phone list), as the page shows them after hydrating. */
async function menuLinks(page: Page, place: string) {
  return page.locator(`#site-menu ${place} a`).evaluateAll((links) =>
    links.map((a) => ({ href: a.getAttribute('href'), text: a.textContent?.trim(), current: a.getAttribute('aria-current') })),
  );
}

async function expectFullMenu(page: Page, lang: 'en' | 'el', current: string | null) {
  const links = await menuLinks(page, '.site-menu-wide');
  expect(links.map((l) => l.href)).toEqual(SECTIONS);
  const words = WORDS[lang];
  expect(links.map((l) => l.text)).toEqual([words.play, words.puzzles, words.tournaments, words.analysis, words.players, words.bots, words.lab, words.account]);
  expect(links.filter((l) => l.current === 'page').map((l) => l.href)).toEqual(current ? [current] : []);
  await expect(page.locator('#menu-search')).toBeVisible();
}

for (const lang of ['en', 'el'] as const) {
  test.describe(`in ${lang === 'en' ? 'English' : 'Greek'}`, () => {
    if (lang === 'el') test.use(GREEK);

    test('every page links to every section through the menu', async ({ page, consoleErrors }, info) => {
      test.setTimeout(120_000);
      // Every section's page, and a table (opened from the lobby).
      const pages = lang === 'en' ? SECTIONS : ['/', '/tournaments', '/players'];
      for (const path of pages) {
        await page.goto(path);
        await hydrated(page);
        await expectFullMenu(page, lang, path);
      }
      await page.goto('/');
      await hydrated(page);
      await page.click('#start-hot-seat');
      await page.waitForURL(/\/table\//);
      await expectFullMenu(page, lang, '/');
      await screenshot(page, info, `menu-table-${lang}`);
      // A click on a section goes there; the menu is the new page's.
      await page.click('#menu-tournaments');
      await page.waitForURL(/\/tournaments$/);
      await hydrated(page);
      await expectFullMenu(page, lang, '/tournaments');
      await page.click('#menu-puzzles');
      await page.waitForURL(/\/puzzles$/);
      await expect(page.locator('#site-menu')).toHaveCount(1);
      expect(consoleErrors).toEqual([]);
    });
  });
}

test('a player is looked up from the menu of any page', async ({ page, consoleErrors }) => {
  await page.goto('/tournaments');
  await hydrated(page);
  await page.fill('#menu-search', 'zzq');
  await page.press('#menu-search', 'Enter');
  await page.waitForURL(/\/players\?q=zzq$/);
  await hydrated(page);
  await expect(page.locator('#player-search-input')).toHaveValue('zzq');
  await expect(page.locator('#player-search-none')).toBeVisible();
  expect(consoleErrors).toEqual([]);
});

for (const lang of ['en', 'el'] as const) {
  test.describe(`phone, ${lang === 'en' ? 'English' : 'Greek'}`, () => {
    test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, ...(lang === 'el' ? GREEK : {}) });

    test('the lobby shows every way to play on its first screen and the menu is a button', async ({ page, consoleErrors }, info) => {
      await page.goto('/');
      await hydrated(page);
      for (const id of ['#start-ai', '#start-hot-seat', '#quick-match']) {
        const box = await page.locator(id).boundingBox();
        expect(box, id).not.toBeNull();
        expect(box!.y + box!.height, `${id} ends within the first screen`).toBeLessThanOrEqual(844);
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await expect(page.locator('#site-menu .site-menu-wide')).toBeHidden();
      await expect(page.locator('#menu-phone-tournaments')).toBeHidden();
      await expect(page.locator('#menu-button')).toHaveText(WORDS[lang].button);
      // The button clears the top bar's words (nothing under it).
      const button = (await page.locator('#menu-button').boundingBox())!;
      for (const id of ['.topbar h1', '.lang-switch']) {
        const box = (await page.locator(id).first().boundingBox())!;
        const overlap = Math.max(0, Math.min(box.x + box.width, button.x + button.width) - Math.max(box.x, button.x)) *
          Math.max(0, Math.min(box.y + box.height, button.y + button.height) - Math.max(box.y, button.y));
        expect(overlap, `${id} is clear of the menu button`).toBe(0);
      }
      await page.click('#menu-button');
      const links = await menuLinks(page, '.site-menu-phone');
      expect(links.map((l) => l.href)).toEqual(SECTIONS);
      await expect(page.locator('#menu-phone-tournaments')).toBeVisible();
      await screenshot(page, info, `menu-phone-open-${lang}`);
      await page.click('#menu-phone-tournaments');
      await page.waitForURL(/\/tournaments$/);
      await hydrated(page);
      await expect(page.locator('#menu-button')).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      expect(consoleErrors).toEqual([]);
    });
  });
}
