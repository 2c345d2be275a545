/**
 * One row of the file tree: an ARIA treeitem placed by the virtual list, with its
 * icon, name and a badge for what is unusual about it (unreadable, a symlink's target).
 */
import type { TreeEntry } from '../../../../shared/project-types';
import type { TreeRow } from './tree-model';

export interface TreeRowViewProps {
  row: TreeRow;
  index: number;
  /** Offset from the list's top (px). */
  top: number;
  isActive: boolean;
  isSelected: boolean;
  onClick: () => void;
}

export function TreeRowView({ row, index, top, isActive, isSelected, onClick }: TreeRowViewProps) {
  const { entry } = row;
  const isFolder = entry.kind === 'directory';
  const isExpandable = isFolder && entry.unlisted !== 'permission-denied' && entry.unlisted !== 'error';
  const badge = describeBadge(entry);
  const className = ['tree-row', isActive && 'is-active', isSelected && 'is-selected', entry.ignored && 'is-ignored']
    .filter(Boolean)
    .join(' ');
  return (
    <div
      id={rowId(index)}
      role="treeitem"
      aria-label={row.name}
      aria-level={row.depth}
      aria-expanded={isExpandable ? row.isExpanded : undefined}
      aria-selected={isSelected}
      aria-description={badge ?? undefined}
      title={badge ? `${entry.path} — ${badge}` : entry.path}
      className={className}
      style={{ transform: `translateY(${top}px)`, paddingLeft: 8 + (row.depth - 1) * 14 }}
      onClick={onClick}
    >
      <span className="tree-icon" aria-hidden="true">
        {isFolder ? (row.isExpanded ? '▾' : '▸') : entry.kind === 'symlink' ? '↪' : '·'}
      </span>
      <span className="tree-name">{row.name}</span>
      {badge && <span className="tree-badge">{badge}</span>}
    </div>
  );
}

/** Rows are identified by position: only rendered rows need ids (aria-activedescendant). */
export function rowId(index: number): string {
  return `tree-row-${index}`;
}

function describeBadge(entry: TreeEntry): string | null {
  if (entry.unlisted === 'permission-denied') return 'permission denied';
  if (entry.unlisted === 'error') return 'could not be listed';
  if (entry.symlink) {
    const { target, escapes, targetKind } = entry.symlink;
    if (targetKind === 'loop') return `symlink loop → ${target}`;
    if (targetKind === 'missing') return `broken link → ${target}`;
    if (escapes) return `outside project → ${target}`;
    return `→ ${target}`;
  }
  return null;
}
