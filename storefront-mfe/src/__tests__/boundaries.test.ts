// Node's child_process and path: the test runs ESLint in a child process.
/// <reference types="node" />
/**
 * The import rules of eslint.config.mjs (boundaries/dependencies), run on small made-up files
 * placed in the real tree, so the relative imports resolve to the real modules. ESLint loads its
 * ES-module config itself, which it cannot do inside Jest's module system, so one child process
 * lints them all.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.join(__dirname, '..', '..', '..');

interface Probe {
  /** Where the file would live, from the repository root. */
  file: string;
  code: string;
}

const LINT = `
import { ESLint } from 'eslint';
const probes = JSON.parse(process.argv[1]);
const eslint = new ESLint({ cwd: process.cwd() });
const out = [];
for (const { file, code } of probes) {
  const [result] = await eslint.lintText(code, { filePath: file });
  out.push(result.messages.filter((m) => m.ruleId === 'boundaries/dependencies').map((m) => m.message));
}
process.stdout.write(JSON.stringify(out));
`;

/** The boundary errors of each probe, in order. */
function lint(probes: Probe[]): string[][] {
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', LINT, JSON.stringify(probes)], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return JSON.parse(out) as string[][];
}

const allowed: Record<string, Probe> = {
  'a feature importing its own folder, shared folders and packages': {
    file: 'storefront-mfe/src/features/home/pages/probe.tsx',
    code: `import { HomeHero } from '../components/home-hero';
import { PartCard } from '../../../components/part-card';
import { ensureStorefrontStyles } from '../../../styles';
import { formatPrice } from '@motoparts/state';
import { MESSAGES } from '@motoparts/contracts/messages';
export const probe = [HomeHero, PartCard, ensureStorefrontStyles, formatPrice, MESSAGES];`,
  },
  "an app importing its remote's features and shared folders, lazily too": {
    file: 'dashboard-mfe/src/app/probe.tsx',
    code: `import { lazy } from 'react';
import { Loading } from '../components/status';
export const Page = lazy(() => import('../features/orders/pages/my-order'));
export const probe = Loading;`,
  },
  "the shell importing a remote's route table": {
    file: 'shell/src/probe.ts',
    code: `export { routes } from '@motoparts/storefront-mfe/routes';`,
  },
};

const refused: Record<string, Probe> = {
  'a feature importing another feature': {
    file: 'storefront-mfe/src/features/home/pages/probe.tsx',
    code: `import { ChoiceSelect } from '../../catalogue/components/choice-select';
export const probe = ChoiceSelect;`,
  },
  'a feature importing another feature lazily': {
    file: 'dashboard-mfe/src/features/users/pages/probe.tsx',
    code: `import { lazy } from 'react';
export const Page = lazy(() => import('../../orders/pages/my-order'));`,
  },
  'a feature importing app/': {
    file: 'storefront-mfe/src/features/catalogue/probe.ts',
    code: `export { pages } from '../../app/pages';`,
  },
  'a shared component importing a feature': {
    file: 'dashboard-mfe/src/components/probe.ts',
    code: `export { useGetUsersQuery } from '../features/users/api';`,
  },
  "a remote importing another remote's source": {
    file: 'dashboard-mfe/src/features/products/probe.tsx',
    code: `import { PartCard } from '../../../../storefront-mfe/src/components/part-card';
export const probe = PartCard;`,
  },
  "a remote importing another remote's package": {
    file: 'storefront-mfe/src/app/probe.ts',
    code: `export { routes } from '@motoparts/dashboard-mfe/routes';`,
  },
  "the shell importing a remote's source": {
    file: 'shell/src/probe.ts',
    code: `import HomePage from '../../storefront-mfe/src/features/home/pages/home-page';
export const probe = HomePage;`,
  },
  "the shell importing a remote's package beyond its routes": {
    file: 'shell/src/probe.ts',
    code: `export { default } from '@motoparts/storefront-mfe/src/features/home/pages/home-page';`,
  },
  'the shared kit importing a remote': {
    file: 'state/src/probe.ts',
    code: `import '../../storefront-mfe/src/features/purchase/api';`,
  },
  "a test of the shared kit importing a remote's source": {
    file: 'state/src/__tests__/probe.test.ts',
    code: `import '../../../storefront-mfe/src/features/purchase/api';`,
  },
  'the contracts importing a remote': {
    file: 'contracts/src/probe.ts',
    code: `export { routes } from '@motoparts/dashboard-mfe/routes';`,
  },
};

describe('import boundaries (eslint.config.mjs)', () => {
  const names = [...Object.keys(allowed), ...Object.keys(refused)];
  let errors: Record<string, string[]> = {};

  beforeAll(() => {
    const results = lint([...Object.values(allowed), ...Object.values(refused)]);
    errors = Object.fromEntries(names.map((name, i) => [name, results[i] ?? []]));
  }, 60_000);

  it.each(Object.keys(allowed))('allows %s', (name) => {
    expect(errors[name]).toEqual([]);
  });

  it.each(Object.keys(refused))('refuses %s', (name) => {
    expect(errors[name]).toHaveLength(1);
  });

  it('says which import broke which rule', () => {
    expect(errors['a feature importing another feature']).toEqual([
      'The home feature may import its own folder, components/, lib/, styles/ and packages, not "../../catalogue/components/choice-select" (another feature or app/).',
    ]);
  });
});
