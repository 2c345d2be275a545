/**
 * Runs the Node version check as an import side effect. Both entries import this module
 * first: ES modules run in import order, so it runs before any other module of the app
 * (and, being shared by both entries, the bundler emits it as a chunk each entry imports
 * first). See node-version.ts.
 */
import { exitIfUnsupportedNode } from './node-version';

exitIfUnsupportedNode();
