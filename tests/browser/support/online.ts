// Online play helpers shared by the specs: a player in a browser context of
// their own (own cookies), and a whole game played by real clicks.
import { Browser, Page } from '@playwright/test';
import { expect, fastAnimations } from './fixtures';
import { clickSquare, status } from './board';

/**
 * A player in a browser context of their own. `address`: the address they
 * are seen from, for a server started with `--client-ip-header X-Real-IP`
 * (as behind a proxy): fair play never pairs two accounts seen from one
 * address for a rated game.
 */
export async function newPlayer(browser: Browser, baseURL: string, errors: string[], address?: string): Promise<Page> {
  const context = await browser.newContext({
    baseURL,
    viewport: { width: 800, height: 600 },
    extraHTTPHeaders: address ? { 'X-Real-IP': address } : undefined,
  });
  await fastAnimations(context);
  const page = await context.newPage();
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    // A failed load's message names no address: add it, and the page's.
    if (message.type() === 'error') errors.push(`${message.text()} (${message.location().url} on ${page.url()})`);
  });
  return page;
}

/** The shortest whole game: black wipes white out in nine moves (13–0). */
export const WIPE_OUT = ['d3', 'c3', 'b3', 'd2', 'e1', 'd6', 'd7', 'e3', 'f4'];
const index = (name: string) => (Number(name[1]) - 1) * 8 + (name.charCodeAt(0) - 97);

/**
 * Plays a whole game, start to end, by real clicks: for each move the player
 * whose turn it is (the one whose board shows the square as legal) clicks it;
 * then every page, spectators included, must show the new state.
 */
export async function playWholeGame(players: Page[], watchers: Page[]) {
  for (const name of WIPE_OUT) {
    const square = index(name);
    let mover: Page | null = null;
    let version = 0;
    for (let attempt = 0; attempt < 300 && !mover; attempt++) {
      for (const page of players) {
        const s = await status(page);
        if (s && s.legal.includes(square) && s.drawnVersion >= s.version) {
          mover = page;
          version = s.version;
          break;
        }
      }
      if (!mover) await players[0].waitForTimeout(100);
    }
    expect(mover, `someone may play ${name}`).not.toBeNull();
    await clickSquare(mover!, square);
    for (const page of [...players, ...watchers]) {
      await page.waitForFunction(
        (v) => ((window as any).othello3d?.status()?.version ?? 0) > v,
        version,
        { timeout: 30_000 },
      );
    }
  }
  return WIPE_OUT.length;
}

/** The password the specs' new accounts use. */
export const PASSWORD = 'violet kettle marches sideways';

/** Signs a new account up from /account, the way a person does; lands on the lobby. */
export async function signUp(page: Page, name: string) {
  await page.goto('/account');
  await page.waitForFunction(() => document.body.dataset.hydrated === 'true');
  await page.fill('#sign-up-name', name);
  await page.fill('#sign-up-password', PASSWORD);
  await page.click('#sign-up');
  await page.waitForURL((url) => url.pathname === '/');
  await expect(page.locator('#account-link')).toHaveText(name);
}
