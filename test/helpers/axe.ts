/**
 * axe-core in Flint's page: the serious and critical violations, in words a failing test can print.
 *
 * The page's CSP (`script-src 'self'`) refuses an inline <script>, so axe's source is
 * evaluated over the DevTools protocol instead (page.evaluate), which the CSP does not
 * govern. CodeMirror lives in open shadow roots; axe walks those by itself.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/** One rule's failure as axe reports it, cut to what a reader needs. */
export interface AxeViolation {
  id: string;
  impact: 'minor' | 'moderate' | 'serious' | 'critical' | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

/** The impacts a screen must be free of. */
const BLOCKING = new Set<AxeViolation['impact']>(['serious', 'critical']);

let axeSource: Promise<string> | null = null;

function loadAxeSource(): Promise<string> {
  axeSource ??= readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  return axeSource;
}

/** Runs axe on the whole page (injecting it once per document) and returns its serious and critical violations. */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate('typeof window.axe === "object"'))) await page.evaluate(await loadAxeSource());
  // Page-side source as a string: the test runner's own helpers must not be serialized into the page.
  const violations = (await page.evaluate(`
    window.axe.run(document, { resultTypes: ['violations'] }).then((results) =>
      results.violations.map(({ id, impact, help, nodes }) => ({
        id, impact, help, nodes: nodes.map(({ target, failureSummary }) => ({ target, failureSummary })),
      })))
  `)) as AxeViolation[];
  return violations.filter((violation) => BLOCKING.has(violation.impact));
}

/**
 * One line per failing element: rule, impact, selector (shadow hosts joined with ' >> '),
 * and axe's summary of what to fix. An empty list is a clean screen.
 */
export function describeViolations(violations: readonly AxeViolation[]): string[] {
  return violations.flatMap((violation) =>
    violation.nodes.map((node) => {
      const target = node.target.map((part) => (Array.isArray(part) ? part.join(' >> ') : String(part))).join(' ');
      const summary = (node.failureSummary ?? violation.help).replace(/\s+/g, ' ').trim();
      return `${violation.id} (${violation.impact}) at ${target}: ${summary}`;
    }),
  );
}

/** Counts of failing elements by rule, e.g. { 'color-contrast': 16 }: for reports, not for asserting. */
export function countByRule(violations: readonly AxeViolation[]): Record<string, number> {
  return Object.fromEntries(violations.map((violation) => [violation.id, violation.nodes.length]));
}
