// Fingers-sized targets: on a phone (390 × 844), every control a person can
// press on the lobby, a table, the account page (signed out and in), a
// profile and the lab measures at least 24 × 24 CSS px (WCAG 2.2, 2.5.8), in
// English and in Greek (the longer words). A radio button or checkbox is
// measured with its label (the label is what a finger presses); a link inside
// a sentence is the criterion's inline exception. Layout does not depend on
// the renderer: this runs on the WebGPU project only.
import { test, expect, screenshot } from './support/fixtures';
import { startServer, RunningServer } from './support/server';
import type { Page } from '@playwright/test';

// A server of its own: it signs up, and the worker's shared server may have
// used up the hour's sign-ups from 127.0.0.1 on other specs.
let own: RunningServer;
test.beforeAll(async () => {
  own = await startServer();
});
test.afterAll(async () => {
  await own?.stop();
});

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

/** Every visible control smaller than 24 × 24, as "what w×h". */
async function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const small: string[] = [];
    const controls = document.querySelectorAll<HTMLElement>(
      'a[href], button, select, textarea, input:not([type=hidden]), summary, [role=button]',
    );
    for (const control of Array.from(controls)) {
      let box: HTMLElement = control;
      if (control instanceof HTMLInputElement && (control.type === 'radio' || control.type === 'checkbox')) {
        box = control.closest('label') ?? control;
      }
      const style = getComputedStyle(box);
      const rect = box.getBoundingClientRect();
      // Not shown (display: none, a closed fold, a screen reader's text).
      if (rect.width === 0 || rect.height === 0 || style.visibility === 'hidden') continue;
      if (control.closest('.sr-only')) continue;
      // A link in a sentence: sized by the text around it.
      if (control.tagName === 'A' && style.display === 'inline') {
        const around = (control.parentElement?.textContent ?? '').replace(control.textContent ?? '', '').trim();
        if (around.length > 0) continue;
      }
      if (rect.width < 24 || rect.height < 24) {
        const name = control.id ? `#${control.id}` : `${control.tagName.toLowerCase()}.${control.className}`;
        const text = (box.textContent ?? '').trim().slice(0, 30);
        small.push(`${name} "${text}" ${Math.round(rect.width)}×${Math.round(rect.height)}`);
      }
    }
    return small;
  });
}

async function visit(page: Page, path: string) {
  await page.goto(own.url + path);
  await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
}

test('every control is at least 24 × 24 px on a phone, in both languages', async ({ page, consoleErrors }, info) => {
  test.setTimeout(240_000);
  const found: string[] = [];
  const check = async (name: string) => {
    for (const small of await smallTargets(page)) found.push(`${name}: ${small}`);
    // And nothing runs off the side (the longer Greek words wrap).
    const wide = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    if (wide > 0) found.push(`${name}: ${wide} px of sideways scroll`);
  };
  for (const lang of ['el', 'en'] as const) {
    await visit(page, `/lang/${lang}?back=/`);
    await expect(page.locator('html')).toHaveAttribute('lang', lang);
    await check(`lobby-${lang}`);
    await page.click('#more-choices > summary');
    await check(`lobby-more-${lang}`);
    await screenshot(page, info, `targets-lobby-${lang}`);
    await page.click('#start-hot-seat');
    await page.waitForURL(/\/table\//);
    await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
    await check(`table-${lang}`);
    await screenshot(page, info, `targets-table-${lang}`);
    await visit(page, '/account');
    await check(`account-${lang}`);
    await visit(page, '/lab');
    await check(`lab-${lang}`);
    await visit(page, '/puzzles');
    await check(`puzzles-${lang}`);
    await screenshot(page, info, `targets-puzzles-${lang}`);
  }
  // Signed in: the account page and a profile.
  const name = `thumb${Date.now() % 1_000_000}`;
  await visit(page, '/account');
  await page.fill('#sign-up-name', name);
  await page.fill('#sign-up-password', 'violet kettle marches sideways');
  await page.click('#sign-up');
  await expect(page.locator('#account-link')).toHaveText(name);
  await check('lobby-signed-in');
  await visit(page, '/account');
  await check('account-signed-in');
  await visit(page, `/@/${name}`);
  await check('profile');
  await screenshot(page, info, 'targets-profile');
  await visit(page, `/lang/el?back=/@/${name}`);
  await expect(page.locator('html')).toHaveAttribute('lang', 'el');
  await check('profile-el');
  await screenshot(page, info, 'targets-profile-el');
  expect(found).toEqual([]);
  expect(consoleErrors).toEqual([]);
});
