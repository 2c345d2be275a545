/**
 * Where settings.json lives: `FLINT_CONFIG_DIR` if set, else the user-data folder
 * Electron would use for an app named Flint, so both shells share one file.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';

export const APP_NAME = 'Flint';

export function configDirectory(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  electronUserData?: string,
): string {
  if (env.FLINT_CONFIG_DIR) return env.FLINT_CONFIG_DIR;
  if (electronUserData) return electronUserData;
  switch (platform) {
    case 'darwin':
      return join(homedir(), 'Library', 'Application Support', APP_NAME);
    case 'win32':
      return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), APP_NAME);
    default:
      return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), APP_NAME);
  }
}

/**
 * Flint's cache folder (scratch files of writes live under it, see fs/scratch-area.ts):
 * `FLINT_CACHE_DIR` if set; beside a `FLINT_CONFIG_DIR` (tests and portable installs keep
 * everything in one place); else the platform's cache folder.
 */
export function cacheDirectory(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.FLINT_CACHE_DIR) return env.FLINT_CACHE_DIR;
  if (env.FLINT_CONFIG_DIR) return join(env.FLINT_CONFIG_DIR, 'cache');
  switch (platform) {
    case 'darwin':
      return join(homedir(), 'Library', 'Caches', APP_NAME);
    case 'win32':
      return join(env.LOCALAPPDATA ?? join(homedir(), 'AppData', 'Local'), APP_NAME, 'Cache');
    default:
      return join(env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), APP_NAME);
  }
}
