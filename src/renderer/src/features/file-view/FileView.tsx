/**
 * The read-only view of the selected file; reloads when another program changes it.
 */
import { formatBytes } from '../../../../shared/format-bytes';
import { useEffect, useRef, useState } from 'react';
import { isSameOrBelow } from '../../../../shared/paths';
import type { FileContent } from '../../../../shared/project-types';
import { flint } from '../../lib/flint';
import { CodeEditor } from './code-editor';

/** What the view shows besides text: why there is no text. */
type ViewContent =
  /** Loaded from main (text, binary or too large). */
  | FileContent
  /** The read failed; the message comes from main. */
  | { kind: 'error'; path: string; message: string }
  /** The file was removed while shown. */
  | { kind: 'deleted'; path: string };

export interface FileViewProps {
  path: string | null;
}

export function FileView({ path }: FileViewProps) {
  const hostRef = useRef<HTMLDivElement>(null);
  const editorRef = useRef<CodeEditor | null>(null);
  const requestRef = useRef(0);
  const [content, setContent] = useState<ViewContent | null>(null);

  useEffect(() => {
    editorRef.current = new CodeEditor(hostRef.current!);
    return () => editorRef.current?.destroy();
  }, []);

  useEffect(() => {
    if (path === null) {
      setContent(null);
      return;
    }
    const load = async (isReload: boolean): Promise<void> => {
      const request = ++requestRef.current;
      const result = await flint.readFile({ path });
      // A newer read (or another file) superseded this one.
      if (request !== requestRef.current) return;
      const next: ViewContent = result.ok ? result.value : { kind: 'error', path, message: result.error.message };
      if (next.kind === 'text') editorRef.current?.show(path, next.text, isReload);
      setContent(next);
    };
    void load(false);
    return flint.on('project:changed', ({ changes }) => {
      for (const change of changes) {
        if (change.type === 'removed' && isSameOrBelow(path, change.path)) {
          requestRef.current += 1;
          setContent({ kind: 'deleted', path });
        } else if (change.type !== 'removed' && (change.type === 'modified' ? change.path : change.entry.path) === path) {
          void load(true);
        }
      }
    });
  }, [path]);

  const isText = content?.kind === 'text';
  return (
    <section className="file-view" aria-label="File view">
      <header className="file-view-header">
        <span className="file-view-path">{path ?? 'No file selected'}</span>
        {content?.kind === 'text' && content.encoding !== 'utf-8' && <span className="file-view-tag">{content.encoding}</span>}
      </header>
      {content?.kind === 'text' && content.notice && (
        <p className="file-view-notice" role="status">
          {content.notice}
        </p>
      )}
      <div ref={hostRef} className="file-view-editor" hidden={!isText} />
      {!isText && <p className="file-view-message">{describe(content, path)}</p>}
    </section>
  );
}

function describe(content: ViewContent | null, path: string | null): string {
  if (path === null) return 'Select a file in the tree to read it here.';
  if (content === null) return 'Loading…';
  switch (content.kind) {
    case 'text':
      return '';
    case 'binary':
      return `Binary file (${formatBytes(content.size)}); not shown.`;
    case 'too-large':
      return `This file is ${formatBytes(content.size)}, over the ${formatBytes(content.limit)} view limit; not loaded.`;
    case 'error':
      return content.message;
    case 'deleted':
      return 'This file was deleted.';
    default: {
      const exhaustive: never = content;
      return exhaustive;
    }
  }
}
