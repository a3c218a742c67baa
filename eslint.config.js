// Lint, and the layer map of docs/architecture.md ("Layers"): each runtime folder may import only
// what its runtime has. A rule here, not a habit, is what keeps the layers apart.
import { builtinModules } from 'node:module';
import { dirname, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The layer map. A file's layer is the first row whose folder (or file) holds it; `may` lists what
 * it may import, `types` what it may import with `import type` only. Targets are the layers, plus
 * 'electron', 'node' (the built-ins, bare or `node:`) and 'npm' (any other package).
 *
 *   src/main/electron  the Electron shell: electron, main's runtime, server, infra, shared, Node
 *   src/main/index.ts  the composition root, the one file outside the shell that imports it
 *   src/main/tools     the tools: what each does and takes (main's runtime, infra, shared, packages); never the
 *                      assistant (how people ask for a tool is the planner's: src/main/assistant/planner/intents)
 *                      and never the server (the backend is reached over tRPC)
 *   src/main/assistant the assistant: the tools, main's runtime, server, infra, shared, Node; no electron
 *   src/main/**        main's runtime (any other folder of src/main): server, infra, shared, Node; no electron
 *   src/server         server, infra, shared, Node; no electron, nothing of main
 *   src/infra          shared infrastructure of the Node processes (the logger): infra, shared, Node, packages
 *   src/shared         shared and packages only: nothing of ours, no Node, no electron
 *   src/preload        shared and electron (contextBridge, ipcRenderer); sandboxed, so no Node, no packages
 *   src/renderer       renderer, shared, packages; main by `import type` only; no Node, no electron
 *
 * Nothing imports the composition root, and no file in src imports from outside these folders
 * (scripts, tests and bench may import src, not the other way round). Every form counts: import,
 * `export … from`, `import()` (a value or a type), require() and `import x = require()`.
 */
const LAYERS = [
  { layer: 'src/main/electron', path: 'src/main/electron/', may: ['src/main/electron', 'src/main/tools', 'src/main/assistant', 'src/main', 'src/server', 'src/infra', 'src/shared', 'electron', 'node', 'npm'] },
  { layer: 'src/main/index.ts', path: 'src/main/index.ts', may: ['src/main/electron', 'src/main/tools', 'src/main/assistant', 'src/main', 'src/server', 'src/infra', 'src/shared', 'node', 'npm'] },
  { layer: 'src/main/tools', path: 'src/main/tools/', may: ['src/main/tools', 'src/main', 'src/infra', 'src/shared', 'node', 'npm'] },
  { layer: 'src/main/assistant', path: 'src/main/assistant/', may: ['src/main/tools', 'src/main/assistant', 'src/main', 'src/server', 'src/infra', 'src/shared', 'node', 'npm'] },
  { layer: 'src/main', path: 'src/main/', may: ['src/main/tools', 'src/main/assistant', 'src/main', 'src/server', 'src/infra', 'src/shared', 'node', 'npm'] },
  { layer: 'src/server', path: 'src/server/', may: ['src/server', 'src/infra', 'src/shared', 'node', 'npm'] },
  { layer: 'src/infra', path: 'src/infra/', may: ['src/infra', 'src/shared', 'node', 'npm'] },
  { layer: 'src/shared', path: 'src/shared/', may: ['src/shared', 'npm'] },
  { layer: 'src/preload', path: 'src/preload/', may: ['src/preload', 'src/shared', 'electron'] },
  { layer: 'src/renderer', path: 'src/renderer/', may: ['src/renderer', 'src/shared', 'npm'], types: ['src/main/tools', 'src/main/assistant', 'src/main'] },
];

const root = dirname(fileURLToPath(import.meta.url));
const builtins = new Set(builtinModules);
// A file row matches its module however it is named: index.ts, index.js (as imported), or index.
const stem = (path) => path.replace(/\.[cm]?[jt]sx?$/, '');
const layerOf = (file) => {
  const path = relative(root, file).split(sep).join('/');
  return LAYERS.find((l) => (l.path.endsWith('/') ? path.startsWith(l.path) : stem(path) === stem(l.path)));
};
/** What a specifier imported from `file` points at: a layer, 'outside' (ours, not a layer), or a package kind. */
const targetOf = (file, specifier) => {
  if (specifier.startsWith('.') || specifier.startsWith('/')) return layerOf(resolve(dirname(file), specifier))?.layer ?? 'outside';
  if (specifier === 'electron' || specifier.startsWith('electron/')) return 'electron';
  if (specifier.startsWith('node:') || builtins.has(specifier) || builtins.has(specifier.split('/')[0])) return 'node';
  return 'npm';
};
const nameOf = (target) => ({ node: 'Node built-ins', npm: 'packages', electron: 'electron', outside: 'files outside the layers of src' })[target] ?? target;

const layering = {
  meta: { type: 'problem', schema: [], docs: { description: 'the layer map: which folder may import what' } },
  create(context) {
    const file = context.filename;
    const from = layerOf(file);
    if (!from) return {};
    const check = (node, source, typeOnly) => {
      const specifier = source?.type === 'Literal' && typeof source.value === 'string' ? source.value
        : source?.type === 'TemplateLiteral' && source.expressions.length === 0 ? source.quasis[0].value.cooked : undefined;
      if (specifier === undefined) {
        context.report({ node, message: `${from.layer}: a computed module specifier, which the layer map cannot check` });
        return;
      }
      const target = targetOf(file, specifier);
      if (from.may.includes(target)) return;
      if (typeOnly && from.types?.includes(target)) return;
      const types = from.types?.includes(target) ? ' except by `import type`' : '';
      context.report({ node, message: `${from.layer} may not import ${nameOf(target)}${types} ('${specifier}'): see the layer map in eslint.config.js` });
    };
    const typeOnlyImport = (node) => node.importKind === 'type'
      || (node.specifiers.length > 0 && node.specifiers.every((s) => s.type === 'ImportSpecifier' && s.importKind === 'type'));
    const typeOnlyExport = (node) => node.exportKind === 'type'
      || (node.specifiers?.length > 0 && node.specifiers.every((s) => s.exportKind === 'type'));
    return {
      ImportDeclaration: (node) => check(node, node.source, typeOnlyImport(node)),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source, typeOnlyExport(node)),
      ExportAllDeclaration: (node) => check(node, node.source, node.exportKind === 'type'),
      ImportExpression: (node) => check(node, node.source, false),
      TSImportType: (node) => check(node, node.argument?.type === 'TSLiteralType' ? node.argument.literal : node.argument, true),
      TSImportEqualsDeclaration: (node) => node.moduleReference.type === 'TSExternalModuleReference'
        && check(node, node.moduleReference.expression, node.importKind === 'type'),
      'CallExpression[callee.type="Identifier"][callee.name="require"]': (node) => check(node, node.arguments[0], false),
    };
  },
};

export default tseslint.config(
  { ignores: ['node_modules/', 'out/', 'dist/', '.data/', 'coverage/', 'test-results/', 'playwright-report/', 'src/server/db/migrations/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-restricted-syntax': ['error', { selector: "CallExpression[callee.property.name='only']", message: 'a focused test silences the rest of the suite' }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx,mts,cts,js,mjs,cjs,jsx}'],
    plugins: { layers: { rules: { imports: layering } } },
    rules: { 'layers/imports': 'error' },
  },
  {
    // src/shared runs in every process: the globals of Node and of the DOM are not there.
    files: ['src/shared/**'],
    rules: {
      'no-restricted-globals': ['error', ...['process', 'Buffer', 'require', 'module', '__dirname', '__filename', 'global', 'setImmediate', 'window', 'document', 'navigator', 'localStorage', 'sessionStorage', 'location']
        .map((name) => ({ name, message: 'src/shared runs in every process: no Node or DOM globals' }))],
    },
  },
);
