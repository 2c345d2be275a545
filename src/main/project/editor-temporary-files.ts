/**
 * Names editors write while saving (swap, backup, probe and atomic-save files).
 *
 * They appear in the tree like any file, but never become "the current file".
 */
import { baseName } from '../../shared/paths';

const TEMPORARY_PATTERNS: readonly RegExp[] = [
  /\.sw[a-p]$/, // vim swap files
  /~$/, // vim and emacs backups
  /^4913$/, // vim's write-permission probe
  /^\.#/, // emacs lock files
  /^#.*#$/, // emacs auto-save
  /___jb_(tmp|old|bak)___$/, // JetBrains safe write
  /\.crswap$/, // Chromium-based editors
  /\.tmp$/, // generic atomic-save temporaries
  /^\.goutputstream-/, // GNOME
];

export function isEditorTemporaryFile(path: string): boolean {
  const name = baseName(path);
  return TEMPORARY_PATTERNS.some((pattern) => pattern.test(name));
}
