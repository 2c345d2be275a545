/**
 * Language names by file name, for the prompt ("src/app.ts (TypeScript)") and the
 * project outline ("mostly Python"). Names only: highlighting is the renderer's job.
 */

const BY_EXTENSION: Record<string, string> = {
  ts: 'TypeScript', tsx: 'TypeScript (TSX)', mts: 'TypeScript', cts: 'TypeScript',
  js: 'JavaScript', jsx: 'JavaScript (JSX)', mjs: 'JavaScript', cjs: 'JavaScript',
  py: 'Python', pyi: 'Python', rs: 'Rust', go: 'Go', java: 'Java', kt: 'Kotlin', kts: 'Kotlin',
  scala: 'Scala', rb: 'Ruby', php: 'PHP', c: 'C', h: 'C', cc: 'C++', cpp: 'C++', cxx: 'C++', hpp: 'C++', hh: 'C++',
  cs: 'C#', fs: 'F#', swift: 'Swift', m: 'Objective-C', mm: 'Objective-C++', dart: 'Dart',
  ex: 'Elixir', exs: 'Elixir', erl: 'Erlang', hs: 'Haskell', ml: 'OCaml', clj: 'Clojure',
  lua: 'Lua', r: 'R', jl: 'Julia', zig: 'Zig', nim: 'Nim', pl: 'Perl',
  sh: 'Shell', bash: 'Shell', zsh: 'Shell', fish: 'Shell', ps1: 'PowerShell',
  css: 'CSS', scss: 'SCSS', sass: 'Sass', less: 'Less', html: 'HTML', htm: 'HTML',
  vue: 'Vue', svelte: 'Svelte', astro: 'Astro',
  json: 'JSON', jsonc: 'JSON', yaml: 'YAML', yml: 'YAML', toml: 'TOML', xml: 'XML', ini: 'INI',
  md: 'Markdown', mdx: 'MDX', rst: 'reStructuredText', tex: 'LaTeX',
  sql: 'SQL', graphql: 'GraphQL', gql: 'GraphQL', proto: 'Protocol Buffers', tf: 'Terraform',
};

const BY_NAME: Record<string, string> = {
  Dockerfile: 'Dockerfile',
  Makefile: 'Makefile',
  'CMakeLists.txt': 'CMake',
  Gemfile: 'Ruby',
  Rakefile: 'Ruby',
};

/** Languages that describe a project's code (data and docs don't make it "a JSON project"). */
const NOT_CODE = new Set(['JSON', 'YAML', 'TOML', 'XML', 'INI', 'Markdown', 'MDX', 'reStructuredText']);

export function languageOf(path: string): string | null {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const byName = BY_NAME[name];
  if (byName) return byName;
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return null;
  return BY_EXTENSION[name.slice(dot + 1).toLowerCase()] ?? null;
}

export function isCodeLanguage(language: string): boolean {
  return !NOT_CODE.has(language);
}
