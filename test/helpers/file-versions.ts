/**
 * A file version from a text, for tests that say what a hunk was proposed on.
 */
import { FileVersion } from '../../src/main/edits/file-version';
import { decodeFileText } from '../../src/main/fs/file-text';

/** The version whose lines are `joined` split at \n (no line terminators in the lines). */
export function versionOfText(joined: string): FileVersion {
  return FileVersion.of(decodeFileText(new TextEncoder().encode(`${joined}\n`), 'test'));
}
