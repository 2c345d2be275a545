/** The X desktop as a test file's fixture (kept apart from x-desktop.ts, which the bench loads outside vitest). */
import { afterAll, beforeAll } from 'vitest';
import { startXDesktop, type XDesktop } from './x-desktop';

/**
 * For a test file: one desktop for all its tests, with the process's DISPLAY pointing at it
 * while they run (get-windows and xclip read the process environment, as in the app).
 * Returns a getter: the desktop exists once `beforeAll` ran.
 */
export function useXDesktop(): () => XDesktop {
  let desktop: XDesktop | null = null;
  const previousDisplay = process.env.DISPLAY;
  beforeAll(async () => {
    desktop = await startXDesktop();
    process.env.DISPLAY = desktop.display;
  });
  afterAll(async () => {
    if (previousDisplay === undefined) delete process.env.DISPLAY;
    else process.env.DISPLAY = previousDisplay;
    await desktop?.close();
  });
  return () => {
    if (!desktop) throw new Error('The X desktop is not started yet (use it inside a test or a hook).');
    return desktop;
  };
}
