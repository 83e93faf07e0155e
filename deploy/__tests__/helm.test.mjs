// The Helm chart (deploy/helm/motoparts): `helm lint` and `helm template` with the default and
// the production values, every rendered object decoded strictly into the Kubernetes API's Go
// types (.tools/bin/k8scheck, built from tools/k8s with helm), and what a deployment relies on,
// read from the rendered objects. `npm test` builds both tools first (scripts/services.mjs).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { parse, parseAllDocuments } from 'yaml';

const ROOT = path.join(import.meta.dirname, '..', '..');
const BIN = path.join(ROOT, '.tools', 'bin');
const CHART = path.join(ROOT, 'deploy', 'helm', 'motoparts');
const PRODUCTION = path.join(CHART, 'values-production.yaml');
const FRONT_ENDS = ['shell', 'storefront', 'auth', 'dashboard'];
const SECRET_KEYS = ['MONGODB_URI', 'JWT_SECRET', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'];

function run(bin, args, input) {
  const res = spawnSync(path.join(BIN, bin), args, { encoding: 'utf8', input, cwd: ROOT });
  if (res.error)
    throw new Error(`${bin} could not run (npm test builds it into .tools/bin): ${res.error.message}`);
  return res;
}

function template(...args) {
  const res = run('helm', ['template', 'shop', CHART, '--namespace', 'motoparts', ...args]);
  assert.equal(res.status, 0, `helm template ${args.join(' ')} failed:\n${res.stderr}`);
  return res.stdout;
}

function objects(rendered) {
  return parseAllDocuments(rendered)
    .map((d) => d.toJS())
    .filter(Boolean);
}
const find = (objs, kind, name) => objs.find((o) => o.kind === kind && o.metadata.name === name);

const variants = {
  default: [],
  production: ['-f', PRODUCTION],
};

for (const [variant, args] of Object.entries(variants)) {
  describe(`helm chart, ${variant} values`, () => {
    const rendered = template(...args);
    const objs = objects(rendered);

    test('helm lint passes', () => {
      const res = run('helm', ['lint', '--strict', CHART, ...args]);
      assert.equal(res.status, 0, res.stdout + res.stderr);
    });

    test('every rendered object decodes strictly into the Kubernetes API types', () => {
      const res = run('k8scheck', [], rendered);
      assert.equal(res.status, 0, res.stdout + res.stderr);
      assert.match(res.stdout, new RegExp(`^${objs.length} objects checked, 0 failed$`, 'm'));
    });

    test('the API: replicas, resources, readiness /health and liveness probes, PDB, HPA', () => {
      const api = find(objs, 'Deployment', 'shop-motoparts-api');
      const pod = api.spec.template.spec;
      const [c] = pod.containers;
      assert.equal(c.readinessProbe.httpGet.path, '/health');
      assert.equal(c.livenessProbe.httpGet.path, '/livez');
      assert.ok(c.resources.requests.cpu && c.resources.requests.memory, 'requests');
      assert.ok(c.resources.limits.cpu && c.resources.limits.memory, 'limits');
      assert.equal(pod.securityContext.runAsNonRoot, true);
      assert.equal(c.securityContext.readOnlyRootFilesystem, true);
      assert.equal(c.securityContext.allowPrivilegeEscalation, false);
      const env = Object.fromEntries(c.env.map((e) => [e.name, e]));
      assert.equal(env.NODE_ENV.value, 'production');
      // Behind the Ingress: one trusted hop, so a client cannot pick its rate-limit address.
      assert.equal(env.TRUST_PROXY_HOPS.value, '1');
      for (const name of SECRET_KEYS) {
        assert.ok(env[name].valueFrom?.secretKeyRef?.name, `${name} comes from a Kubernetes Secret`);
        assert.equal(env[name].value, undefined, `${name} is never a plain value`);
      }
      for (const local of ['FIREBASE_AUTH_EMULATOR_HOST', 'STRIPE_API_BASE', 'ALLOW_LOCAL_SERVICES']) {
        assert.equal(env[local], undefined, `no ${local} in a cluster`);
      }
      const hpa = find(objs, 'HorizontalPodAutoscaler', 'shop-motoparts-api');
      assert.equal(hpa.spec.scaleTargetRef.name, 'shop-motoparts-api');
      assert.ok(hpa.spec.minReplicas >= 2, 'at least two API replicas');
      assert.equal(api.spec.replicas, undefined, 'the HPA owns the replica count');
      const pdb = find(objs, 'PodDisruptionBudget', 'shop-motoparts-api');
      assert.deepEqual(pdb.spec.selector.matchLabels, api.spec.selector.matchLabels);
      assert.ok(pdb.spec.minAvailable < hpa.spec.minReplicas, 'a node drain can always proceed');
      assert.ok(find(objs, 'Service', 'shop-motoparts-api'));
    });

    test('each front end: its own Deployment, Service and image tag; config.json from the ConfigMap', () => {
      const config = find(objs, 'ConfigMap', 'shop-motoparts-config');
      const json = JSON.parse(config.data['config.json']);
      assert.match(json.apiBaseUrl, /^https:\/\//);
      for (const name of FRONT_ENDS) {
        const deployment = find(objs, 'Deployment', `shop-motoparts-${name}`);
        assert.ok(find(objs, 'Service', `shop-motoparts-${name}`), `${name} has a Service`);
        const pod = deployment.spec.template.spec;
        const mount = pod.containers[0].volumeMounts.find(
          (m) => m.mountPath === '/usr/share/nginx/html/config.json',
        );
        assert.equal(mount.subPath, 'config.json');
        const volume = pod.volumes.find((v) => v.name === mount.name);
        assert.equal(volume.configMap.name, 'shop-motoparts-config');
        assert.ok(
          deployment.spec.template.metadata.annotations['checksum/config'],
          'a config change rolls the pods',
        );
        assert.equal(pod.securityContext.runAsNonRoot, true);
      }
      const ingress = objs.find((o) => o.kind === 'Ingress');
      const backends = ingress.spec.rules.map((r) => r.http.paths[0].backend.service.name).sort();
      assert.deepEqual(backends, ['api', ...FRONT_ENDS].map((n) => `shop-motoparts-${n}`).sort());
      const text = rendered.toLowerCase();
      for (const secret of ['sk_live_', 'sk_test_', 'whsec_', 'mongodb://', 'jwt_secret:']) {
        assert.ok(!text.includes(secret), `no secret value (${secret}…) is rendered`);
      }
    });
  });
}

/** The API Deployment's pod spec, its container and its env by name. */
function apiPod(objs) {
  const deployment = find(objs, 'Deployment', 'shop-motoparts-api');
  const pod = deployment.spec.template.spec;
  const [container] = pod.containers;
  const env = Object.fromEntries(container.env.map((e) => [e.name, e]));
  return { deployment, pod, container, env };
}

function assertK8sValid(rendered) {
  const res = run('k8scheck', [], rendered);
  assert.equal(res.status, 0, res.stdout + res.stderr);
  assert.match(res.stdout, / 0 failed$/m);
}

describe("the API's Firebase Admin credential (Application Default Credentials)", () => {
  test('production: the service-account Secret is mounted read-only and named by GOOGLE_APPLICATION_CREDENTIALS', () => {
    const values = parse(readFileSync(PRODUCTION, 'utf8')).api.firebase;
    assert.ok(values.credentialsSecret, 'values-production.yaml names the Secret');
    const { pod, container, env } = apiPod(objects(template('-f', PRODUCTION)));
    const volume = pod.volumes.find((v) => v.secret?.secretName === values.credentialsSecret);
    assert.ok(volume, `a volume from Secret ${values.credentialsSecret}`);
    assert.equal(volume.secret.items.length, 1, 'only the key file is projected');
    const [item] = volume.secret.items;
    assert.equal(item.key, values.credentialsKey);
    assert.equal(volume.secret.defaultMode, 0o440, 'read-only for the owner and the pod group, not others');
    assert.equal(volume.secret.optional, undefined, 'a missing Secret keeps the pod from starting');
    const mount = container.volumeMounts.find((m) => m.name === volume.name);
    assert.equal(mount.readOnly, true);
    assert.equal(mount.subPath, undefined, 'a directory mount: a rotated key reaches the pod');
    assert.equal(env.GOOGLE_APPLICATION_CREDENTIALS.value, `${mount.mountPath}/${item.path}`);
  });

  test('default: nothing mounted, no GOOGLE_APPLICATION_CREDENTIALS (workload identity instead)', () => {
    const { pod, container, env } = apiPod(objects(template()));
    assert.equal(env.GOOGLE_APPLICATION_CREDENTIALS, undefined);
    assert.deepEqual(
      pod.volumes.filter((v) => v.secret),
      [],
      'no Secret volume',
    );
    assert.deepEqual(
      container.volumeMounts.map((m) => m.mountPath),
      ['/tmp'],
    );
    assert.equal(pod.serviceAccountName, undefined, 'the namespace default unless named');
    assert.equal(pod.automountServiceAccountToken, false);
  });

  test('a ServiceAccount for workload identity is rendered when named', () => {
    const rendered = template('--set', 'api.serviceAccountName=motoparts-api');
    const { pod, env } = apiPod(objects(rendered));
    assert.equal(pod.serviceAccountName, 'motoparts-api');
    assert.equal(env.GOOGLE_APPLICATION_CREDENTIALS, undefined);
    assertK8sValid(rendered);
  });

  test('a Secret without a key stops the render', () => {
    const res = run('helm', [
      'template',
      'shop',
      CHART,
      '--set',
      'api.firebase.credentialsSecret=motoparts-firebase',
      '--set',
      'api.firebase.credentialsKey=',
    ]);
    assert.notEqual(res.status, 0);
    assert.match(res.stderr, /api\.firebase\.credentialsKey is required/);
  });
});

describe('the API with autoscaling off', () => {
  for (const [variant, args] of Object.entries(variants)) {
    test(`${variant} values: the Deployment has api.replicas, no HPA, the PDB still lets a drain proceed`, () => {
      const files = [path.join(CHART, 'values.yaml'), ...(args.length ? [PRODUCTION] : [])];
      const replicas = files
        .map((f) => parse(readFileSync(f, 'utf8')).api?.replicas)
        .filter((r) => r !== undefined)
        .at(-1);
      const rendered = template(...args, '--set', 'api.autoscaling.enabled=false');
      const objs = objects(rendered);
      const { deployment } = apiPod(objs);
      assert.equal(deployment.spec.replicas, replicas);
      assert.equal(
        objs.find((o) => o.kind === 'HorizontalPodAutoscaler'),
        undefined,
        'no HPA',
      );
      const pdb = find(objs, 'PodDisruptionBudget', 'shop-motoparts-api');
      assert.ok(pdb.spec.minAvailable < replicas, 'a node drain can always proceed');
      assertK8sValid(rendered);
    });
  }
});

describe('per-team release', () => {
  test('one front end upgrades (and rolls back) alone by its image tag', () => {
    const before = objects(template('-f', PRODUCTION));
    const after = objects(template('-f', PRODUCTION, '--set', 'frontends.dashboard.image.tag=2.1.0'));
    const image = (objs, name) =>
      find(objs, 'Deployment', `shop-motoparts-${name}`).spec.template.spec.containers[0].image;
    assert.equal(image(after, 'dashboard'), 'registry.motoparts.example/motoparts/dashboard:2.1.0');
    for (const name of ['api', 'shell', 'storefront', 'auth']) {
      assert.equal(image(after, name), image(before, name), `${name} is untouched`);
    }
    const remotes = (objs) =>
      JSON.parse(find(objs, 'ConfigMap', 'shop-motoparts-config').data['config.json']).remotes;
    assert.equal(remotes(after).dashboard, 'https://cdn.motoparts.example/remotes/dashboard/2.1.0/');
    assert.equal(remotes(after).storefront, remotes(before).storefront);
  });

  test('the shell names each remote release in config.json: a canary or rollback is a value', () => {
    const objs = objects(template('-f', PRODUCTION, '--set', 'frontends.storefront.version=3.0.9'));
    const config = JSON.parse(find(objs, 'ConfigMap', 'shop-motoparts-config').data['config.json']);
    assert.equal(config.remotes.storefront, 'https://cdn.motoparts.example/remotes/storefront/3.0.9/');
    // Without a CDN each remote is loaded from its own host, served by its own Deployment.
    const local = objects(template());
    const localConfig = JSON.parse(find(local, 'ConfigMap', 'shop-motoparts-config').data['config.json']);
    assert.equal(localConfig.remotes.dashboard, 'https://dashboard.motoparts.example/');
  });

  test('a missing image tag stops the render', () => {
    const res = run('helm', ['template', 'shop', CHART, '--set', 'frontends.auth.image.tag=']);
    assert.notEqual(res.status, 0);
    assert.match(res.stderr, /auth image\.tag is required/);
  });
});

describe('k8scheck', () => {
  test('rejects an unknown field, a wrong type and an unknown kind', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'k8scheck-'));
    const cases = {
      'unknown field "spec.replica"':
        'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: a\nspec:\n  replica: 2\n',
      'cannot unmarshal':
        'apiVersion: v1\nkind: Service\nmetadata:\n  name: b\nspec:\n  ports:\n    - port: eighty\n',
      'not a type the Kubernetes API knows': 'apiVersion: v1\nkind: Deploymnt\nmetadata:\n  name: c\n',
    };
    for (const [message, doc] of Object.entries(cases)) {
      const file = path.join(dir, 'doc.yaml');
      writeFileSync(file, doc);
      const res = run('k8scheck', [file]);
      assert.equal(res.status, 1, `${message}: ${res.stdout}`);
      assert.ok(res.stdout.includes(message), `reports ${message}: ${res.stdout}`);
    }
  });
});
