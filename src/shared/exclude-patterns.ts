/**
 * The `exclude` setting's shape, checked alike where the renderer sends it (contract-schemas)
 * and where settings.json is read (settings-store): .gitignore lines, one pattern each.
 */
import { z } from 'zod';

/** Enough for any real list; a bound, so a damaged settings file cannot make every scan slow. */
export const MAX_EXCLUDE_PATTERNS = 200;

export const ExcludePatterns = z
  .array(
    z
      .string()
      .min(1)
      .max(512)
      .refine((pattern) => !/[\r\n]/.test(pattern) && pattern.trim() !== '', 'A pattern is one line of .gitignore, not blank.'),
  )
  .max(MAX_EXCLUDE_PATTERNS);

/** The textarea's text as patterns: one per line, blank lines and surrounding spaces dropped, each once. */
export function patternsOf(text: string): string[] {
  return [...new Set(text.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== ''))];
}
