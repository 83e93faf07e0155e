import type { ModuleFederation } from '@module-federation/enhanced/runtime';
import { unmetRequirements } from '../version-guard';

type SharedInfos = ModuleFederation['options']['shared'];

/** A share-scope entry as a container's federation instance keeps it (only what the guard reads). */
const shared = (entries: Record<string, [version: string, required: string | false]>) =>
  Object.fromEntries(
    Object.entries(entries).map(([pkg, [version, requiredVersion]]) => [
      pkg,
      [{ version, shareConfig: { singleton: true, requiredVersion } }],
    ]),
  ) as unknown as SharedInfos;

const shell = shared({ react: ['19.3.1', '^19.3.1'], 'react-redux': ['9.3.1', '^9.3.1'] });

test('a remote whose ranges the shell’s copies satisfy is let through', () => {
  expect(
    unmetRequirements(
      'dashboard',
      shell,
      shared({ react: ['19.3.0', '^19.0.0'], 'react-redux': ['9.3.1', '^9.1.0'] }),
    ),
  ).toEqual([]);
});

test('each unmet range is named with the remote, its range and the shell’s version', () => {
  expect(
    unmetRequirements(
      'dashboard',
      shell,
      shared({ react: ['20.0.0', '^20.0.0'], 'react-redux': ['9.3.1', '^99.0.0'] }),
    ),
  ).toEqual([
    'react: dashboard requires ^20.0.0, the shell shares 19.3.1',
    'react-redux: dashboard requires ^99.0.0, the shell shares 9.3.1',
  ]);
});

test('a package the shell does not share, or one required in any version, is not checked', () => {
  expect(
    unmetRequirements('dashboard', shell, shared({ uplot: ['1.6.32', '^2.0.0'], react: ['19.3.1', false] })),
  ).toEqual([]);
});
