/**
 * The project tree: lazy (folders listed by main as they open), virtualized (50,000 rows
 * scroll like 50), keyboard-driven, ARIA tree; its filter searches main's whole index.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { TreeModel } from './tree-model';
import { ROW_HEIGHT } from './tree-navigation';
import { rowId, TreeRowView } from './TreeRowView';
import { FILTER_LIMIT, useFileFilter } from './use-file-filter';
import { useTreeExpansion } from './use-tree-expansion';
import { useTreeNavigation } from './use-tree-navigation';

export interface FileTreeProps {
  model: TreeModel;
  version: number;
  showIgnored: boolean;
  selectedPath: string | null;
  onOpenFile: (path: string) => void;
  onError: (message: string) => void;
  /** Whose folders these are: the open ones are kept across a reload, per project. */
  projectRoot: string;
}

export function FileTree({ model, version, showIgnored, selectedPath, onOpenFile, onError, projectRoot }: FileTreeProps) {
  const [filter, setFilter] = useState('');
  const scrollRef = useRef<HTMLDivElement>(null);
  const { expanded, toggle, listings } = useTreeExpansion(model, version, onError, projectRoot);
  const query = filter.trim();
  const matches = useFileFilter(query, showIgnored, version, onError);
  const folderRows = useMemo(
    () => model.visibleRows(expanded, showIgnored),
    // `version` and `listings` stand for the model's contents.
    [model, version, listings, expanded, showIgnored],
  );
  const rows = matches?.rows ?? folderRows;
  const { activeIndex, open, onKeyDown, ensureActiveRow } = useTreeNavigation({ rows, scrollRef, toggle, onOpenFile });

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 24,
  });
  useEffect(() => {
    if (activeIndex >= 0) virtualizer.scrollToIndex(activeIndex, { align: 'auto' });
  }, [activeIndex, virtualizer]);

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
            ensureActiveRow();
            event.preventDefault();
          }
        }}
      />
      {matches?.indexing && <p className="tree-hint">Still indexing: the filter searches every file once they are all found.</p>}
      {matches && !matches.indexing && matches.rows.length === 0 && <p className="tree-hint">No files match “{query}”.</p>}
      {matches?.more && (
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
        onFocus={ensureActiveRow}
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
                onClick={() => open(row)}
              />
            );
          })}
        </div>
      </div>
    </div>
  );
}
