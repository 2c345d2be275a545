/**
 * The `exclude` setting: what every project hides besides its .gitignore files, in
 * .gitignore's syntax, one pattern per line. Applied with its button, not per keystroke:
 * each change reads the open project's tree again.
 */
import { useEffect, useState } from 'react';
import { MAX_EXCLUDE_PATTERNS, patternsOf } from '../../../../shared/exclude-patterns';

export function ExcludeSetting({ value, onChange }: { value: readonly string[]; onChange: (patterns: string[]) => void }) {
  const saved = value.join('\n');
  const [text, setText] = useState(saved);
  // What was applied (here or in another window) replaces the text.
  useEffect(() => setText(saved), [saved]);
  const patterns = patternsOf(text);
  const tooMany = patterns.length > MAX_EXCLUDE_PATTERNS;
  const changed = patterns.join('\n') !== saved;
  return (
    <section className="settings-exclude" aria-labelledby="exclude-heading">
      <h3 id="exclude-heading">Hidden in every project</h3>
      <p id="exclude-help" className="settings-note">
        Patterns as in .gitignore, one per line (<code>dist/</code>, <code>*.log</code>). Flint neither reads nor watches a hidden folder; “Show ignored files” shows it.
      </p>
      <textarea aria-labelledby="exclude-heading" aria-describedby="exclude-help" aria-invalid={tooMany} rows={4} spellCheck={false} value={text} onChange={(event) => setText(event.target.value)} />
      {tooMany && (
        <p role="alert" className="form-error">
          At most {MAX_EXCLUDE_PATTERNS} patterns; this has {patterns.length}.
        </p>
      )}
      <button type="button" disabled={!changed || tooMany} onClick={() => onChange(patterns)}>
        Apply
      </button>
    </section>
  );
}
