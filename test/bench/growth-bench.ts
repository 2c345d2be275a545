/**
 * Wall-clock growth ratios of the adversarial inputs whose tests count work instead
 * (test/helpers/work-growth.ts): reported here, never gating. A ratio near 1 is linear
 * time; near 16 is quadratic. Above 6 on an idle machine is worth a look — on a busy one,
 * allocation and GC of 200 KB strings alone can push a linear case that high.
 */
import { AnchorableFile, anchorHunk } from '../../src/shared/edits/anchor-hunk';
import { LiteralSearch, occurrences } from '../../src/shared/edits/linear-search';
import { LineIndex } from '../../src/shared/edits/line-index';
import { findSelection } from '../../src/main/context/selection-lines';
import { parseAnswer } from '../helpers/collect-answer';
import { growthRatio } from './growth';
import { round } from './statistics';

/** A case: what it runs at a size, and the size (the ratio compares it with 16 times it). */
const CASES: ReadonlyArray<{ name: string; size: number; run: (size: number) => unknown }> = [
  { name: 'growth_parse_star_run', size: 12_500, run: (size) => parseAnswer(`a${'*'.repeat(size)}a\n`, [4096]) },
  { name: 'growth_parse_space_run', size: 12_500, run: (size) => parseAnswer(`a${' '.repeat(size)}a\n`, [4096]) },
  { name: 'growth_parse_header_run', size: 12_500, run: (size) => parseAnswer(`*** Begin Patch\n*** Update File: a.ts\n*** Move to: b${' '.repeat(size)}x\n-old\n+new\n*** End Patch\n`, [4096]) },
  { name: 'growth_parse_line_by_char', size: 65_536, run: (size) => parseAnswer(`+${'x'.repeat(size)}\n`, [1]) },
  {
    name: 'growth_anchor_space_run',
    size: 12_500,
    run: (size) => anchorHunk(new AnchorableFile(['a', 'b']), { lines: [{ kind: 'remove', text: `a${' '.repeat(size)}x` }, { kind: 'add', text: 'y' }] }),
  },
  {
    name: 'growth_anchor_hint_aba',
    size: 12_500,
    run: (size) => anchorHunk(new AnchorableFile(['a'.repeat(size), 'c']), { lines: [{ kind: 'remove', text: 'c' }, { kind: 'add', text: 'd' }], contextHints: [`${'a'.repeat(size / 8)}b${'a'.repeat(size / 8)}`] }),
  },
  { name: 'growth_literal_search_aba', size: 25_000, run: (size) => new LiteralSearch(`${'a'.repeat(size / 8)}b${'a'.repeat(size / 8)}`).foundIn('a'.repeat(size)) },
  { name: 'growth_identical_lines', size: 2_500, run: (size) => [...occurrences(Array<string>(size).fill('}'), [...Array<string>(size / 2).fill('}'), 'z'])] },
  { name: 'growth_common_lines_index', size: 2_000, run: (size) => new LineIndex(Array.from({ length: size }, (_, index) => (index % 3 === 0 ? '' : '}'))).matches(Array<string>(8).fill('}'), 0).next() },
  { name: 'growth_selection_space_run', size: 2_500, run: (size) => findSelection(`a${' '.repeat(size)}b\nconst b = 2;`, ['const a = 1;', 'const b = 2;']) },
];

export async function measureGrowth(log: (line: string) => void): Promise<Record<string, number>> {
  log('Timing growth ratios of adversarial inputs…');
  const figures: Record<string, number> = {};
  for (const { name, size, run } of CASES) figures[name] = round(await growthRatio(run, size));
  return figures;
}
