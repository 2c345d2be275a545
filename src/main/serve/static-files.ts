/**
 * Serves the built renderer (out/renderer) read-only, confined to its folder.
 */
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

export interface StaticFile {
  body: Buffer;
  contentType: string;
}

/** Reads the asset for a URL path, or null if there is none (or the path tries to leave). */
export async function readStaticFile(folder: string, urlPath: string): Promise<StaticFile | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const relative = decoded === '/' ? 'index.html' : decoded.replace(/^\/+/, '');
  const absolute = normalize(join(folder, relative));
  if (!absolute.startsWith(folder.endsWith(sep) ? folder : folder + sep)) return null;
  try {
    const body = await readFile(absolute);
    return { body, contentType: CONTENT_TYPES[extname(absolute)] ?? 'application/octet-stream' };
  } catch {
    return null;
  }
}
