/**
 * The `@` completion list under the ask bar's input: project files matching what follows
 * the `@`, the active one highlighted. A listbox the input controls (ARIA 1.1 combobox:
 * the wrapper is the combobox, the input keeps its textbox role and focus, and names the
 * active option with aria-activedescendant). Clicking an option completes it without
 * taking focus from the input.
 */
import type { ReactNode } from 'react';
import type { MentionCompletionHandle } from './use-mention-completion';

/** Wraps the input as a combobox whose popup is the completion list. */
export function MentionCombobox({ completion, children }: { completion: MentionCompletionHandle; children: ReactNode }) {
  return (
    <div
      className="mention-combobox"
      role="combobox"
      aria-label="Question, with @ file completion"
      aria-haspopup="listbox"
      aria-expanded={completion.isOpen}
      aria-controls={completion.listId}
    >
      {children}
      <MentionList completion={completion} />
    </div>
  );
}

function MentionList({ completion }: { completion: MentionCompletionHandle }) {
  const { isOpen, options, active, listId, optionId, pick, setActive } = completion;
  // Always in the page (hidden when closed): the combobox's aria-controls names it.
  return (
    <ul id={listId} className="mention-list" role="listbox" aria-label="Project files" hidden={!isOpen}>
      {isOpen && options.map((path, index) => {
        const slash = path.lastIndexOf('/');
        return (
          <li
            key={path}
            id={optionId(index)}
            role="option"
            aria-selected={index === active}
            className={index === active ? 'is-active' : undefined}
            // Not a click: the input keeps focus (and its caret) while the option is taken.
            onMouseDown={(event) => {
              event.preventDefault();
              pick(path);
            }}
            onMouseMove={() => index !== active && setActive(index)}
          >
            <span className="mention-name">{path.slice(slash + 1)}</span>
            {slash !== -1 && <span className="mention-folder">{path.slice(0, slash)}</span>}
          </li>
        );
      })}
    </ul>
  );
}
