/**
 * The project folder's identity (device and inode): a root moved, deleted or replaced
 * sends no reliable event, so the session checks it now and then.
 */
import { stat } from 'node:fs/promises';
import { errorCode } from '../fs/fs-errors';

export interface RootIdentity {
  dev: number;
  ino: number;
}

export async function rootIdentityOf(root: string): Promise<RootIdentity> {
  const { dev, ino } = await stat(root);
  return { dev, ino };
}

/** What became of the folder at `root` since it was `identity`, in words for the user; null while it is still there. */
export async function rootLoss(root: string, identity: RootIdentity): Promise<string | null> {
  try {
    const stats = await stat(root);
    return stats.isDirectory() && stats.ino === identity.ino && stats.dev === identity.dev ? null : 'was replaced';
  } catch (error) {
    return errorCode(error) === 'ENOENT' ? 'was deleted or moved' : 'can no longer be read';
  }
}
