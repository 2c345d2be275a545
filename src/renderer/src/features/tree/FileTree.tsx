/**
 * The project tree: virtualized (50,000 entries scroll like 50), keyboard-driven, ARIA tree.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { parentPath } from '../../../../shared/paths';
import type { TreeEntry } from '../../../../shared/project-types';
import { flint } from '../../lib/flint';
import type { TreeModel, TreeRow } from './tree-model';

const ROW_HEIGHT = 22;
/** A filter shows at most this many matches; more means the query should be narrower. */
const FILTER_LIMIT = 5000;

export interface FileTreeProps {
  model: TreeModel;
  version: number;
  showIgnored: boolean;
  selectedPath: string | null;
  onOpenFile: (path: string) => void;
  onError: (message: string) => void;
}

export function FileTree({ model, version, showIgnored, selectedPath, onOpenFile, onError }: FileTreeProps) {
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());
  const [activePath, setActivePath] = useState<string | null>(null);
  const [filter, setFilter] = useState('');
  const scrollRef = useRef<HTMLDivElement>(null);

  const rows = useMemo(
    () => (filter.trim() ? model.filterRows(filter.trim(), showIgnored, FILTER_LIMIT) : model.visibleRows(expanded, showIgnored)),
    // `version` stands for the model's contents.
    [model, version, expanded, showIgnored, filter],
  );
  const activeIndex = rows.findIndex((row) => row.entry.path === activePath);

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 24,
  });

  useEffect(() => {
    if (activeIndex >= 0) virtualizer.scrollToIndex(activeIndex, { align: 'auto' });
  }, [activeIndex, virtualizer]);

  const toggle = useCallback(
    async (entry: TreeEntry, open?: boolean) => {
      if (entry.kind !== 'directory' || entry.unlisted === 'permission-denied' || entry.unlisted === 'error') return;
      const willOpen = open ?? !expanded.has(entry.path);
      if (willOpen && model.needsListing(entry)) {
        const result = await flint.listDirectory({ path: entry.path });
        if (!result.ok) return onError(result.error.message);
        model.addListed(entry.path, result.value);
      }
      setExpanded((current) => {
        const next = new Set(current);
        if (willOpen) next.add(entry.path);
        else next.delete(entry.path);
        return next;
      });
    },
    [expanded, model, onError],
  );

  const activate = useCallback(
    (row: TreeRow) => {
      setActivePath(row.entry.path);
      if (row.entry.kind === 'directory') void toggle(row.entry);
      else onOpenFile(row.entry.path);
    },
    [onOpenFile, toggle],
  );

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    const current = rows[activeIndex];
    const moveTo = (index: number): void => {
      const row = rows[Math.max(0, Math.min(rows.length - 1, index))];
      if (row) setActivePath(row.entry.path);
    };
    switch (event.key) {
      case 'ArrowDown':
        moveTo(activeIndex + 1);
        break;
      case 'ArrowUp':
        moveTo(activeIndex < 0 ? 0 : activeIndex - 1);
        break;
      case 'Home':
        moveTo(0);
        break;
      case 'End':
        moveTo(rows.length - 1);
        break;
      case 'PageDown':
        moveTo(activeIndex + pageSize(scrollRef.current));
        break;
      case 'PageUp':
        moveTo(activeIndex - pageSize(scrollRef.current));
        break;
      case 'ArrowRight':
        if (current?.entry.kind === 'directory') {
          if (!current.isExpanded) void toggle(current.entry, true);
          else moveTo(activeIndex + 1);
        }
        break;
      case 'ArrowLeft':
        if (current?.isExpanded) void toggle(current.entry, false);
        else if (current && parentPath(current.entry.path) !== '') setActivePath(parentPath(current.entry.path));
        break;
      case 'Enter':
      case ' ':
        if (current) activate(current);
        break;
      default:
        return;
    }
    event.preventDefault();
  };

  return (
    <div className="tree-panel">
      <input
        className="tree-filter"
        type="search"
        placeholder="Filter files"
        aria-label="Filter files"
        value={filter}
        onChange={(event) => setFilter(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown') {
            scrollRef.current?.focus();
            if (activeIndex < 0 && rows[0]) setActivePath(rows[0].entry.path);
            event.preventDefault();
          }
        }}
      />
      {filter.trim() && rows.length >= FILTER_LIMIT && (
        <p className="tree-hint">Showing the first {FILTER_LIMIT.toLocaleString()} matches; type more to narrow.</p>
      )}
      <div
        ref={scrollRef}
        className="tree-scroll"
        role="tree"
        aria-label="Files"
        tabIndex={0}
        aria-activedescendant={activeIndex >= 0 ? rowId(activeIndex) : undefined}
        onKeyDown={onKeyDown}
        onFocus={() => activeIndex < 0 && rows[0] && setActivePath(rows[0].entry.path)}
      >
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows[item.index]!;
            return (
              <TreeRowView
                key={row.entry.path}
                row={row}
                index={item.index}
                top={item.start}
                isActive={item.index === activeIndex}
                isSelected={row.entry.path === selectedPath}
                onClick={() => activate(row)}
              />
            );
          })}
        </div>
      </div>
    </div>
  );
}

function TreeRowView({ row, index, top, isActive, isSelected, onClick }: {
  row: TreeRow;
  index: number;
  top: number;
  isActive: boolean;
  isSelected: boolean;
  onClick: () => void;
}) {
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

/** Rows are identified by position: only rendered rows need ids (aria-activedescendant). */
function rowId(index: number): string {
  return `tree-row-${index}`;
}

function pageSize(element: HTMLElement | null): number {
  return Math.max(1, Math.floor((element?.clientHeight ?? ROW_HEIGHT * 10) / ROW_HEIGHT) - 1);
}
