import { describe, expect, it } from 'vitest';
import { ALWAYS_HIDDEN_NAMES } from '../../shared/paths';
import { IgnoreRules } from './ignore-rules';

describe('IgnoreRules', () => {
  it('hides .git and node_modules with no rules at all', () => {
    const rules = new IgnoreRules();
    expect(ALWAYS_HIDDEN_NAMES.has('.git')).toBe(true);
    expect(rules.isIgnored('.git', true)).toBe(true);
    expect(rules.isIgnored('node_modules', true)).toBe(true);
  });

  it('hides .cache folders, where only programs write, at any depth', () => {
    const rules = new IgnoreRules();
    expect(rules.isIgnored('.cache', true)).toBe(true);
    expect(rules.isIgnoredDirectory('packages/web/.cache')).toBe(true);
    expect(rules.isInsideIgnoredDirectory('.cache/chromium/Default/Cache/data_1')).toBe(true);
    expect(rules.isIgnored('src/cache', true)).toBe(false);
  });

  it('hides .git and node_modules at any depth', () => {
    const rules = new IgnoreRules();
    expect(rules.isIgnored('packages/web/node_modules', true)).toBe(true);
    expect(rules.isIgnored('vendor/lib/.git', true)).toBe(true);
    expect(rules.isIgnoredDirectory('packages/web/node_modules')).toBe(true);
  });

  it('keeps .git and node_modules hidden even when a .gitignore re-includes them', () => {
    const rules = new IgnoreRules();
    rules.add('', '!node_modules\n!.git\n');
    expect(rules.isIgnored('node_modules', true)).toBe(true);
    expect(rules.isIgnored('.git', true)).toBe(true);
  });

  it('does not hide names that merely contain node_modules', () => {
    const rules = new IgnoreRules();
    expect(rules.isIgnored('node_modules_backup', true)).toBe(false);
    expect(rules.isIgnored('src/my.git', false)).toBe(false);
  });

  it('shows ordinary entries when no rule matches', () => {
    const rules = new IgnoreRules();
    rules.add('', '*.log\n');
    expect(rules.isIgnored('src/app.ts', false)).toBe(false);
    expect(rules.isIgnored('src', true)).toBe(false);
  });

  it('applies a root .gitignore pattern at every depth', () => {
    const rules = new IgnoreRules();
    rules.add('', '*.log\n');
    expect(rules.isIgnored('debug.log', false)).toBe(true);
    expect(rules.isIgnored('src/deep/trace.log', false)).toBe(true);
  });

  it('applies an anchored root pattern only at the root', () => {
    const rules = new IgnoreRules();
    rules.add('', '/out\n');
    expect(rules.isIgnored('out', true)).toBe(true);
    expect(rules.isIgnored('src/out', true)).toBe(false);
  });

  it('matches a folder-only pattern against folders but not files', () => {
    const rules = new IgnoreRules();
    rules.add('', 'build/\n');
    expect(rules.isIgnored('build', true)).toBe(true);
    expect(rules.isIgnored('src/build', true)).toBe(true);
    expect(rules.isIgnored('build', false)).toBe(false);
    expect(rules.isIgnored('src/build', false)).toBe(false);
  });

  it('lets a deeper .gitignore negation override a root pattern', () => {
    const rules = new IgnoreRules();
    rules.add('', '*.log\n');
    rules.add('logs', '!keep.log\n');
    expect(rules.isIgnored('logs/keep.log', false)).toBe(false);
    expect(rules.isIgnored('logs/other.log', false)).toBe(true);
    expect(rules.isIgnored('keep.log', false)).toBe(true);
  });

  it('applies a nested .gitignore only below its own folder', () => {
    const rules = new IgnoreRules();
    rules.add('pkg', '*.tmp\n');
    expect(rules.isIgnored('pkg/a.tmp', false)).toBe(true);
    expect(rules.isIgnored('pkg/deep/b.tmp', false)).toBe(true);
    expect(rules.isIgnored('a.tmp', false)).toBe(false);
    expect(rules.isIgnored('other/a.tmp', false)).toBe(false);
  });

  it('lets a later line override an earlier one in the same file', () => {
    const rules = new IgnoreRules();
    rules.add('', '*.log\n!important.log\n');
    expect(rules.isIgnored('important.log', false)).toBe(false);
    expect(rules.isIgnored('noise.log', false)).toBe(true);
  });

  it('lets the root .gitignore (added later) override .git/info/exclude', () => {
    const rules = new IgnoreRules();
    rules.add('', '*.txt\n'); // info/exclude is read first
    rules.add('', '!notes.txt\n'); // then the root .gitignore
    expect(rules.isIgnored('notes.txt', false)).toBe(false);
    expect(rules.isIgnored('other.txt', false)).toBe(true);
  });

  it('ignores comments and blank lines in a .gitignore', () => {
    const rules = new IgnoreRules();
    rules.add('', '# dist\n\n   \n');
    expect(rules.isIgnored('dist', true)).toBe(false);
    expect(rules.isIgnored('# dist', false)).toBe(false);
  });

  describe('isIgnoredDirectory', () => {
    it('is false for the root', () => {
      const rules = new IgnoreRules();
      rules.add('', '*\n');
      expect(rules.isIgnoredDirectory('')).toBe(false);
    });

    it('is true for a folder below an ignored folder', () => {
      const rules = new IgnoreRules();
      rules.add('', 'dist/\n');
      expect(rules.isIgnoredDirectory('dist/assets/img')).toBe(true);
      expect(rules.isIgnoredDirectory('src/assets')).toBe(false);
    });

    it('sees rules added after an earlier answer', () => {
      const rules = new IgnoreRules();
      expect(rules.isIgnoredDirectory('generated')).toBe(false);
      rules.add('', 'generated/\n');
      expect(rules.isIgnoredDirectory('generated')).toBe(true);
    });
  });

  describe('isInsideIgnoredDirectory', () => {
    it('is true for entries nested anywhere inside an ignored folder', () => {
      const rules = new IgnoreRules();
      rules.add('', 'build/\n');
      expect(rules.isInsideIgnoredDirectory('build/out.js')).toBe(true);
      expect(rules.isInsideIgnoredDirectory('build/a/b/c.js')).toBe(true);
      expect(rules.isInsideIgnoredDirectory('src/node_modules/pkg/index.js')).toBe(true);
    });

    it('is false for the ignored folder itself', () => {
      const rules = new IgnoreRules();
      rules.add('', 'build/\n');
      expect(rules.isInsideIgnoredDirectory('build')).toBe(false);
    });

    it('is false for top-level entries and entries in visible folders', () => {
      const rules = new IgnoreRules();
      rules.add('', 'build/\n');
      expect(rules.isInsideIgnoredDirectory('README.md')).toBe(false);
      expect(rules.isInsideIgnoredDirectory('src/build.ts')).toBe(false);
    });

    it('cannot be undone by a negation for a file inside an excluded folder', () => {
      const rules = new IgnoreRules();
      rules.add('', 'dist/\n!dist/keep.js\n');
      expect(rules.isInsideIgnoredDirectory('dist/keep.js')).toBe(true);
    });
  });

  it('counts the same .gitignore read twice once (a folder listed again adds nothing)', () => {
    const rules = new IgnoreRules();
    rules.add('src', '*.log\n!keep.log\n');
    rules.add('src', '*.log\n!keep.log\n');
    expect((rules as unknown as { matchers: Map<string, unknown[]> }).matchers.get('src')).toHaveLength(1);
    expect(rules.isIgnored('src/a.log', false)).toBe(true);
    expect(rules.isIgnored('src/keep.log', false)).toBe(false);
  });
});
