/**
 * What this tab had open, kept across a reload: sessionStorage, per tab and per origin
 * (like the serve token), one entry per project: another project's folders never open,
 * and switching back finds this one's as it was.
 * Storage may be disabled or full: then a reload simply starts fresh.
 */
const PREFIX = 'flint.memory.';

export function remember(name: string, scope: string, value: unknown): void {
  try {
    sessionStorage.setItem(`${PREFIX}${name}:${scope}`, JSON.stringify({ scope, value }));
  } catch {
    // Nothing kept: a reload starts fresh.
  }
}

/** What was remembered under `name` for `scope`, if `accept` takes it; else null. */
export function recall<T>(name: string, scope: string, accept: (value: unknown) => value is T): T | null {
  try {
    const stored = sessionStorage.getItem(`${PREFIX}${name}:${scope}`);
    if (stored === null) return null;
    const parsed = JSON.parse(stored) as { scope?: unknown; value?: unknown };
    return parsed.scope === scope && accept(parsed.value) ? parsed.value : null;
  } catch {
    return null;
  }
}

export const isString = (value: unknown): value is string => typeof value === 'string';
export const isStringList = (value: unknown): value is string[] => Array.isArray(value) && value.every(isString);
