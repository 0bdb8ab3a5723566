// AI lab helpers shared by the specs.
import { Page } from '@playwright/test';
import { expect } from './fixtures';

/** Waits until `n` moves are listed and the latest one is explained. */
export async function waitExplained(page: Page, n: number) {
  await expect(page.locator('#lab-moves li')).toHaveCount(n);
  const card = page.locator('#explanation-card');
  await expect(card).toHaveAttribute('data-ply', String(n));
  await expect(card).toHaveAttribute('data-state', 'ready');
}

/** Waits until the island has drawn board version `v`. */
export async function waitDrawn(page: Page, v: number) {
  await page.waitForFunction(
    (version) => {
      const s = (window as any).othello3d?.status();
      return !!s && s.version === version && s.drawnVersion >= version && !s.animating;
    },
    v,
    { timeout: 60_000 },
  );
}
