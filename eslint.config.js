import { readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import { loadOwnership, ownershipProblems } from './scripts/architecture/table-ownership.js';

const ROOT = import.meta.dirname;

// ---------------------------------------------------------------------------------------------
// The floor plan. Each package may import the packages listed after it, and nothing else; the
// platform is the composition root and may import every package. The console talks to the
// services over HTTP only, so its one workspace import is the schemas.
// ---------------------------------------------------------------------------------------------
const PACKAGES = {
  schemas: { dir: 'schemas', imports: [] },
  runtime: { dir: 'services/runtime', imports: ['schemas'] },
  // Users, sessions, identity and the admin audit: the floor below the money, which it never calls.
  accounts: { dir: 'services/accounts', imports: ['runtime', 'schemas'] },
  // The wallet writes the admin audit of payment decisions in their own transactions.
  wallet: { dir: 'services/wallet', imports: ['accounts', 'runtime', 'schemas'] },
  'price-ingest': { dir: 'services/price-ingest', imports: ['runtime', 'schemas'] },
  // accounts for the admin audit of the back-office commands the order service runs (pairs, risk).
  order: { dir: 'services/order', imports: ['wallet', 'price-ingest', 'accounts', 'runtime', 'schemas'] },
  settlement: {
    dir: 'services/settlement',
    // accounts for its test harness's users only: settlement's own code reads no account.
    imports: ['order', 'wallet', 'price-ingest', 'accounts', 'runtime', 'schemas'],
  },
  gateway: {
    dir: 'services/gateway',
    imports: ['settlement', 'order', 'wallet', 'price-ingest', 'accounts', 'runtime', 'schemas'],
  },
  platform: {
    dir: 'services/platform',
    imports: ['gateway', 'settlement', 'order', 'wallet', 'price-ingest', 'accounts', 'runtime', 'schemas'],
  },
  console: { dir: 'console', imports: ['schemas'] },
  // The suites' API client: typed by the OpenAPI document, it speaks HTTP like the console.
  'api-client': { dir: 'api-client', imports: ['schemas'] },
};

const packageGraphZones = Object.entries(PACKAGES).map(([name, { dir, imports }]) => ({
  target: `./${dir}`,
  from: Object.entries(PACKAGES)
    .filter(([other]) => other !== name && !imports.includes(other))
    .map(([, other]) => `./${other.dir}`),
  message: `${name} may import only ${imports.length === 0 ? 'no other package' : imports.join(', ')}.`,
}));

// Console features never import each other: what two features share lives in
// console/src/components or console/src/lib. One zone per feature folder, read from disk so a new
// feature is covered without editing this file.
const CONSOLE_FEATURES = 'console/src/features';
const consoleFeatures = readdirSync(path.join(ROOT, CONSOLE_FEATURES), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const consoleFeatureZones = consoleFeatures.map((feature) => ({
  target: `./${CONSOLE_FEATURES}/${feature}`,
  from: consoleFeatures.filter((other) => other !== feature).map((other) => `./${CONSOLE_FEATURES}/${other}`),
  message:
    'Features never import each other: move what they share to console/src/components or console/src/lib.',
}));
// The shared folders sit below the features and must not lean on one.
const consoleSharedZone = {
  target: ['./console/src/components', './console/src/lib'],
  from: `./${CONSOLE_FEATURES}`,
  message: 'Shared console code must not depend on a feature.',
};

// ---------------------------------------------------------------------------------------------
// Entry points. A package is imported by its name (`@updown/x`) or one of its declared subpath
// entries (`@updown/x/testing`, `@updown/x/domain`, `@updown/runtime/errors`, the schemas' `api`,
// `openapi`, `market` and `policies`, the verifier's `rules`, `chain`, `canonical` and `node`), never by a
// path into its sources. Relative paths into another package are refused by
// import-x/no-relative-packages.
// ---------------------------------------------------------------------------------------------
const ENTRY_POINT_PATTERNS = [
  {
    regex:
      '^@updown/[^/]+/(?!(?:testing|testing/global-setup|domain|errors|api|openapi|market|policies|migrations|rules|chain|canonical|node)$)',
    message: "Import another package through its entry points (its package.json 'exports').",
  },
];

// ---------------------------------------------------------------------------------------------
// Pure domain modules (`*.domain.ts`): no I/O and nothing that reads time, randomness or the
// environment. They may import other domain modules, types, `@updown/schemas` (pure data and
// types) and the pure entries `@updown/runtime/errors` and `@updown/<pkg>/domain`.
// ---------------------------------------------------------------------------------------------
// Matched as whole module names (a plain group pattern such as 'domain', a Node built-in, would also
// refuse `@updown/wallet/domain`).
const IMPURE_MODULES = ['fastify', '@fastify/[^/]+', 'kysely', 'pg', 'kafkajs', 'pino', 'prom-client', 'ws'];
const NODE_BUILTINS = builtinModules.filter((name) => !name.startsWith('_'));
const DOMAIN_IMPORT_PATHS = [
  {
    name: '@updown/runtime',
    message: 'The runtime barrel loads pg, kafkajs and pino: import DomainError from @updown/runtime/errors.',
  },
  ...['accounts', 'wallet', 'order', 'settlement', 'gateway', 'price-ingest', 'platform'].map((name) => ({
    name: `@updown/${name}`,
    message: `The @updown/${name} barrel does I/O: a domain module may import only @updown/${name}/domain.`,
  })),
];
const DOMAIN_IMPORT_PATTERNS = [
  ...ENTRY_POINT_PATTERNS,
  {
    regex: `^(?:${IMPURE_MODULES.join('|')})(?:/.*)?$`,
    message: 'Domain modules do no I/O: take the result as an argument.',
  },
  { regex: `^(?:node:.*|${NODE_BUILTINS.join('|')})$`, message: 'Domain modules do no I/O.' },
  {
    regex: '^@updown/[^/]+/testing$',
    message: 'Domain modules do not import test helpers.',
  },
  {
    regex:
      '(^|/)([^/]+\\.)?(repository|handler|service|routes|plugin|hooks|cli|metrics|ws|consumer|read-model|config)(\\.[jt]s)?$',
    message:
      'Domain modules import only other pure modules: no repositories, handlers, services, routes or config.',
  },
];

// process.env: read only by a package's configuration readers, files named `config.ts`,
// `*.config.ts` or `*-config.ts` (runtime-config.ts, standalone-config.ts). The rule covers the
// production sources of every workspace package (schemas/, services/*/src, console/src). Tests
// (`*.test.ts`), test helpers (`src/testing/`, `*.contract.ts`) and the suites and tools outside
// the packages (scripts/, bench/, chaos/, security/, e2e/, load-tests/, infra/) are exempt: they
// are command-line programs and test harnesses whose knobs are environment variables
// (UPDOWN_TEST_LONG, CHAOS_SEED, BENCH_DATABASE_URL) and which pass PATH and HOME to the
// processes they start.
const PROCESS_ENV = {
  object: 'process',
  property: 'env',
  message: 'Only config.ts files read the environment.',
};
const CONFIG_FILES = ['**/config.ts', '**/*.config.ts', '**/*-config.ts'];
const TEST_FILES = ['**/*.test.{ts,tsx}', '**/testing/**', '**/*.contract.ts'];
const PACKAGE_SOURCES = [...Object.values(PACKAGES).map(({ dir }) => `${dir}/**/*.{ts,tsx}`)];

// The clock of the services (see the block that applies it) and the transactions a route file may
// not open: a kysely `transaction()` on any database or connection, a `runPgTransaction`, or a
// `begin` sent as SQL text. Listed once here, as both apply to route files.
const CLOCK_RESTRICTION = {
  selector: "MemberExpression[object.name='Date'][property.name='now']",
  message: 'Read the time from the injected Clock, or performance.now() for a duration or a deadline.',
};
const ROUTE_TRANSACTION_MESSAGE =
  'A route opens no transaction: the command and its transaction go in a handler (`*.handler.ts`), which the route calls.';
const ROUTE_TRANSACTION_RESTRICTIONS = [
  "CallExpression[callee.property.name='transaction']",
  "CallExpression[callee.property.value='transaction']",
  "CallExpression[callee.name='runPgTransaction']",
  "TaggedTemplateExpression[tag.name='sql'] > TemplateLiteral > TemplateElement:first-child[value.raw=/^\\s*(?:begin|start\\s+transaction)\\b/i]",
].map((selector) => ({ selector, message: ROUTE_TRANSACTION_MESSAGE }));

// Files that run only on a developer's machine and may use their package's devDependencies (the
// production image installs `dependencies` only). Tests and test helpers may also use the root's
// devDependencies, where the test runner and its helpers are installed once for all workspaces.
const DEV_ONLY_FILES = [
  ...TEST_FILES,
  '**/vite.config.ts',
  // The generators of committed artifacts (AsyncAPI document, OpenAPI types).
  '**/asyncapi.cli.ts',
  '**/api-document/api-artifacts.ts',
];

const workspaceDependencyBlocks = Object.values(PACKAGES).flatMap(({ dir }) => [
  {
    files: [`${dir}/**/*.{ts,tsx,js,mjs}`],
    rules: {
      'import-x/no-extraneous-dependencies': [
        'error',
        {
          packageDir: [path.join(ROOT, dir)],
          devDependencies: DEV_ONLY_FILES.map((glob) => path.join(ROOT, dir, glob)),
          optionalDependencies: false,
          peerDependencies: false,
        },
      ],
    },
  },
  {
    files: TEST_FILES.map((glob) => `${dir}/${glob}`),
    rules: {
      'import-x/no-extraneous-dependencies': [
        'error',
        { packageDir: [path.join(ROOT, dir), ROOT], devDependencies: true, peerDependencies: false },
      ],
    },
  },
]);

// ---------------------------------------------------------------------------------------------
// One owner per table: the package whose migrations create it (scripts/architecture/
// table-owners.json, which the platform's migrations test keeps true to what the migrations do).
// Product code elsewhere never names it, except a foreign key pointing down a floor in a migration
// and a read model (`*.read-model.ts`, read-only) reading the tables its package.json declares.
// ---------------------------------------------------------------------------------------------
const ownership = loadOwnership(ROOT);
const tableOwnerRule = {
  meta: { type: 'problem', schema: [], docs: { description: 'A table is named only by its owner.' } },
  create(context) {
    const file = path.relative(ROOT, context.filename).split(path.sep).join('/');
    return {
      Program() {
        for (const problem of ownershipProblems(ownership, file, context.sourceCode.text))
          context.report({ loc: { line: problem.line, column: 0 }, message: problem.message });
      },
    };
  },
};

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '.data/**',
      'coverage/**',
      'bench/results/**',
      'test-results/**',
      // Deliberate violations, linted one by one by scripts/lint-boundaries.test.ts.
      'scripts/lint-fixtures/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        URL: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      eqeqeq: ['error', 'always'],
      'no-console': 'off',
    },
  },
  {
    // Boundaries between packages, entry points and declared dependencies (see the top of this
    // file). Imports are resolved the way Node and TypeScript resolve them (package `exports`,
    // `.ts` sources), so `@updown/order` is checked as services/order/src/index.ts.
    files: ['**/*.{ts,tsx,js,mjs}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [
        createNodeResolver({
          extensions: ['.ts', '.tsx', '.mjs', '.js', '.json', '.node'],
          conditionNames: ['types', 'import', 'node', 'default'],
          extensionAlias: { '.js': ['.ts', '.tsx', '.js'] },
        }),
      ],
    },
    rules: {
      'import-x/no-relative-packages': 'error',
      'import-x/no-restricted-paths': [
        'error',
        { basePath: ROOT, zones: [...packageGraphZones, ...consoleFeatureZones, consoleSharedZone] },
      ],
      'no-restricted-imports': ['error', { patterns: ENTRY_POINT_PATTERNS }],
      // The suites and tools at the root declare what they import in the root package.json,
      // workspace packages included (`includeInternal`: seen from the root, a workspace package
      // resolves inside the repository, so it would otherwise count as the root's own code).
      'import-x/no-extraneous-dependencies': [
        'error',
        {
          packageDir: [ROOT],
          devDependencies: true,
          optionalDependencies: false,
          peerDependencies: false,
          includeInternal: true,
        },
      ],
    },
  },
  ...workspaceDependencyBlocks,
  {
    files: PACKAGE_SOURCES,
    ignores: [...CONFIG_FILES, ...TEST_FILES],
    rules: { 'no-restricted-properties': ['error', PROCESS_ENV] },
  },
  {
    // The services read the time from their injected clock (`Clock`, services/runtime/src/clock.ts),
    // which tests set and advance; a duration or a wait's deadline reads the monotonic
    // `performance.now()`. The console shows the browser's own clock and has no injected one; the
    // schemas package stamps an event it is given no time for.
    files: ['services/*/src/**/*.ts'],
    ignores: [...TEST_FILES, 'services/runtime/src/clock.ts'],
    rules: { 'no-restricted-syntax': ['error', CLOCK_RESTRICTION] },
  },
  {
    // Routes are the edge: they validate the request, call a handler and shape the answer. A
    // command's transaction, and the rules it holds, live in a handler (`*.handler.ts`) of the
    // package that owns its tables, where other callers reach them without HTTP. The block
    // repeats the clock's restriction: for the files two blocks match, flat config keeps only the
    // last block's options of a rule.
    files: ['services/*/src/**/*.routes.ts'],
    ignores: TEST_FILES,
    rules: { 'no-restricted-syntax': ['error', CLOCK_RESTRICTION, ...ROUTE_TRANSACTION_RESTRICTIONS] },
  },
  {
    files: ['services/*/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    plugins: { updown: { rules: { 'table-owner': tableOwnerRule } } },
    rules: { 'updown/table-owner': 'error' },
  },
  {
    // One order in names with a unit: the unit, then the qualifier (`retryDelayMsMax`,
    // `EXIT_TICK_AGE_MS_MAX`, `stakeCentsMax`), so names of the same quantity sort together.
    // Fields that mirror a Prometheus metric keep the metric's order, whose unit is last by
    // convention (`holdMaxSeconds` for `..._hold_max_seconds`); seconds are not checked. Other
    // libraries' names are theirs (kafkajs's `maxWaitTimeInMs`, k6's `maxVUs`), and so are
    // environment variables, which operators set.
    files: ['**/*.{ts,tsx,js,mjs}'],
    rules: {
      'id-match': [
        'error',
        '^(?![a-z]\\w*(?:Max|Min)(?:Ms|Cents|Bytes)$)(?![A-Z0-9_]*_(?:MAX|MIN)_(?:MS|CENTS|BYTES)$)(?!(?:max|min)[A-Z]\\w*(?<!In)(?:Ms|Cents|Bytes)$)',
        { properties: true, onlyDeclarations: false, ignoreDestructuring: false, classFields: true },
      ],
    },
  },
  {
    // The console runs in the browser. Only the two classic hook rules: the plugin's newer
    // compiler-oriented rules are not part of the house style yet.
    files: ['console/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: {
      globals: {
        window: 'readonly',
        document: 'readonly',
        localStorage: 'readonly',
        fetch: 'readonly',
        crypto: 'readonly',
        WebSocket: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
      },
    },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    // The verifier (verify/, plain JavaScript checked by TypeScript) depends on nothing: its
    // sources import each other and, in its Node port and command line, Node built-ins. Its
    // browser-safe modules run in browsers and in Node alike.
    files: ['verify/src/**/*.js'],
    languageOptions: { globals: { TextEncoder: 'readonly' } },
    rules: {
      'import-x/no-extraneous-dependencies': [
        'error',
        { packageDir: [path.join(ROOT, 'verify')], devDependencies: false, includeInternal: true },
      ],
    },
  },
  {
    // k6 scripts run in k6's JavaScript runtime, which provides these.
    files: ['load-tests/**/*.js'],
    languageOptions: { globals: { __ENV: 'readonly', __VU: 'readonly', __ITER: 'readonly' } },
  },
  {
    // Domain modules stay pure: time, randomness and the environment come in as arguments. A
    // package's `domain` entry (`@updown/<pkg>/domain`) is held to the same rules.
    files: ['**/*.domain.ts', '**/src/domain.ts', '**/src/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: DOMAIN_IMPORT_PATHS, patterns: DOMAIN_IMPORT_PATTERNS }],
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: 'Take the time from the command.' },
        { object: 'Math', property: 'random', message: 'Take randomness from the caller.' },
        { object: 'performance', property: 'now', message: 'Take the time from the command.' },
        PROCESS_ENV,
      ],
      'no-restricted-globals': [
        'error',
        { name: 'process', message: 'Domain modules do not read the process or its environment.' },
        { name: 'crypto', message: 'Take randomness and ids from the caller.' },
        { name: 'performance', message: 'Take the time from the command.' },
        { name: 'setTimeout', message: 'Domain modules do not schedule work.' },
        { name: 'setInterval', message: 'Domain modules do not schedule work.' },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: 'new Date() reads the clock: take the time from the command.',
        },
        {
          selector: "CallExpression[callee.name='Date']",
          message: 'Date() reads the clock: take the time from the command.',
        },
      ],
    },
  },
);
