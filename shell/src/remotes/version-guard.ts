import {
  getInstance,
  satisfy,
  type ModuleFederation,
  type ModuleFederationRuntimePlugin,
} from '@module-federation/enhanced/runtime';

type SharedInfos = ModuleFederation['options']['shared'];

/**
 * One line per shared package a remote requires in a range the shell's copy does not satisfy
 * ("react-redux: dashboard requires ^99.0.0, the shell shares 9.3.1"). Packages the shell does not
 * share are fine: the remote runs on its own copy of those.
 */
export function unmetRequirements(remote: string, own: SharedInfos, theirs: SharedInfos): string[] {
  const problems: string[] = [];
  for (const [pkg, entries] of Object.entries(theirs)) {
    const provided = own[pkg]?.[0]?.version;
    if (!provided) continue;
    for (const entry of entries) {
      const range = entry.shareConfig?.requiredVersion;
      if (typeof range === 'string' && !satisfy(provided, range)) {
        problems.push(`${pkg}: ${remote} requires ${range}, the shell shares ${provided}`);
      }
    }
  }
  return problems;
}

/**
 * A federation runtime plugin: before a remote's container is initialised (before it registers
 * or loads anything), compares what the remote's build requires of every shared package with the
 * shell's copies, and refuses it when one is not met. A singleton would otherwise be handed to
 * code built for another major version, or a second copy would load; refused, the remote's load
 * fails and its page shows its own error boundary with Retry.
 */
export function versionGuard(): ModuleFederationRuntimePlugin {
  return {
    name: 'guard',
    beforeInitContainer(args) {
      const { remoteInfo, origin } = args;
      // The remote's container has run by now (its remoteEntry.js is loaded) and made its own
      // federation instance, which holds the shared configuration its build was made with.
      const remote = getInstance((instance) => instance.name === remoteInfo.name && instance !== origin);
      if (!remote) return args;
      const problems = unmetRequirements(remoteInfo.name, origin.options.shared, remote.options.shared);
      if (problems.length === 0) return args;
      const message = `The ${remoteInfo.name} remote (${remoteInfo.entry}) was refused: ${problems.join('; ')}`;
      console.error(message);
      throw new Error(message);
    },
  };
}
